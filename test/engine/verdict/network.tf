# The network half of the verdict estate (terraform-verdict-network.test.ts): the VPC and what
# lives in it (subnets, routes, security groups and rules, ENI, EIP, NAT, instance, volume, key
# pair, launch template, autoscaling, ECS service on awsvpc, DB subnet group, load balancer):
# 27 resources of 25 types. services.tf holds the other 24 types; together the 49 types the
# engine reads natively (cloud/aws/index.ts), no type in both.
resource "aws_vpc" "main" {
  cidr_block           = "10.40.0.0/16"
  enable_dns_hostnames = true
  tags                 = { Name = "verdict-${var.suffix}", Env = "test" }
}
resource "aws_subnet" "a" {
  vpc_id            = aws_vpc.main.id
  cidr_block        = "10.40.1.0/24"
  availability_zone = "${var.region}a"
  tags              = { Name = "a" }
}
resource "aws_subnet" "b" {
  vpc_id            = aws_vpc.main.id
  cidr_block        = "10.40.2.0/24"
  availability_zone = "${var.region}b"
  tags              = { Name = "b" }
}
resource "aws_internet_gateway" "gw" {
  vpc_id = aws_vpc.main.id
}
resource "aws_route_table" "public" {
  vpc_id = aws_vpc.main.id
  tags   = { Name = "public" }
}
resource "aws_route" "world" {
  route_table_id         = aws_route_table.public.id
  destination_cidr_block = "0.0.0.0/0"
  gateway_id             = aws_internet_gateway.gw.id
}
resource "aws_route_table_association" "a" {
  subnet_id      = aws_subnet.a.id
  route_table_id = aws_route_table.public.id
}
resource "aws_security_group" "web" {
  name        = "web-${var.suffix}"
  description = "web"
  vpc_id      = aws_vpc.main.id
  ingress {
    from_port   = 443
    to_port     = 443
    protocol    = "tcp"
    cidr_blocks = ["10.0.0.0/8"]
  }
  egress {
    from_port   = 0
    to_port     = 0
    protocol    = "-1"
    cidr_blocks = ["0.0.0.0/0"]
  }
  tags = { Env = "test" }
}
resource "aws_security_group" "db" {
  name        = "db-${var.suffix}"
  description = "db"
  vpc_id      = aws_vpc.main.id
}
resource "aws_security_group_rule" "db_in" {
  type              = "ingress"
  security_group_id = aws_security_group.db.id
  from_port         = 5432
  to_port           = 5432
  protocol          = "tcp"
  cidr_blocks       = ["10.40.0.0/16"]
}
resource "aws_vpc_security_group_ingress_rule" "db_ssh" {
  security_group_id = aws_security_group.db.id
  cidr_ipv4         = "10.40.0.0/16"
  from_port         = 22
  to_port           = 22
  ip_protocol       = "tcp"
}
resource "aws_vpc_security_group_egress_rule" "db_out" {
  security_group_id = aws_security_group.db.id
  cidr_ipv4         = "10.0.0.0/8"
  ip_protocol       = "-1"
}
resource "aws_network_interface" "eni" {
  subnet_id       = aws_subnet.a.id
  security_groups = [aws_security_group.web.id]
  description     = "eni"
}
resource "aws_eip" "nat" {
  domain = "vpc"
}
resource "aws_nat_gateway" "nat" {
  allocation_id = aws_eip.nat.id
  subnet_id     = aws_subnet.a.id
}
resource "aws_instance" "web" {
  ami                    = var.ami
  instance_type          = "t3.micro"
  subnet_id              = aws_subnet.a.id
  vpc_security_group_ids = [aws_security_group.web.id]
  tags                   = { Name = "web" }
}
resource "aws_ebs_volume" "data" {
  availability_zone = "${var.region}a"
  size              = 8
  tags              = { Name = "data" }
}
resource "aws_key_pair" "deploy" {
  key_name   = "deploy-${var.suffix}"
  public_key = "ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIKqPZybGPVU+YDK51FIFRSj3XPYJET2iQg1AisjS1iw1 verdict"
}
resource "aws_launch_template" "app" {
  name          = "app-${var.suffix}"
  image_id      = var.ami
  instance_type = "t3.micro"
}
resource "aws_autoscaling_group" "app" {
  name                      = "app-${var.suffix}"
  min_size                  = 0
  max_size                  = 2
  desired_capacity          = 0
  vpc_zone_identifier       = [aws_subnet.a.id]
  wait_for_capacity_timeout = "0"
  launch_template {
    id      = aws_launch_template.app.id
    version = "$Latest"
  }
}
resource "aws_ecs_cluster" "main" {
  name = "main-${var.suffix}"
}
resource "aws_ecs_task_definition" "app" {
  family                = "app-${var.suffix}"
  network_mode          = "awsvpc"
  container_definitions = jsonencode([{ name = "app", image = "nginx", cpu = 128, memory = 256, essential = true }])
}
resource "aws_ecs_service" "app" {
  name            = "app"
  cluster         = aws_ecs_cluster.main.id
  task_definition = aws_ecs_task_definition.app.arn
  desired_count   = 0
  # Without it moto answers a service the provider cannot read (a nil network configuration).
  network_configuration {
    subnets         = [aws_subnet.a.id]
    security_groups = [aws_security_group.web.id]
  }
}
resource "aws_db_subnet_group" "main" {
  name       = "main-${var.suffix}"
  subnet_ids = [aws_subnet.a.id, aws_subnet.b.id]
}
resource "aws_lb" "web" {
  name               = "web-${var.suffix}"
  load_balancer_type = "application"
  subnets            = [aws_subnet.a.id, aws_subnet.b.id]
  security_groups    = [aws_security_group.web.id]
}
resource "aws_lb_target_group" "web" {
  name     = "web-${var.suffix}"
  port     = 80
  protocol = "HTTP"
  vpc_id   = aws_vpc.main.id
}
resource "aws_lb_listener" "web" {
  load_balancer_arn = aws_lb.web.arn
  port              = 80
  protocol          = "HTTP"
  default_action {
    type             = "forward"
    target_group_arn = aws_lb_target_group.web.arn
  }
}
