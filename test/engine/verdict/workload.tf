# The workload half of the verdict estate (terraform-verdict-workload.test.ts): a VPC and what
# lives in it (subnets, routes, security groups and rules, ENI, EIP, NAT, instance, volume, key
# pair, launch template, autoscaling, ECS service on awsvpc, DB subnet group), its IAM, its S3
# bucket, its queues and topic: 42 resources of 39 types. services.tf holds the other 10 types
# (and VPC, subnet and group again, for its load balancer); together the 49 types the engine
# reads natively (cloud/aws/index.ts). The queues are here because the provider reads a deleted
# queue for 20 s before it lets go (RetryWhenNotFound), which the services half cannot afford.
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
locals {
  trust = jsonencode({ Version = "2012-10-17", Statement = [{ Effect = "Allow", Principal = { Service = "ec2.amazonaws.com" }, Action = "sts:AssumeRole" }] })
  read  = jsonencode({ Version = "2012-10-17", Statement = [{ Effect = "Allow", Action = ["s3:GetObject"], Resource = ["arn:aws:s3:::verdict-${var.suffix}/*"] }] })
}
resource "aws_s3_bucket" "data" {
  bucket = "verdict-${var.suffix}"
  tags   = { Env = "test" }
}
resource "aws_s3_bucket_versioning" "data" {
  bucket = aws_s3_bucket.data.id
  versioning_configuration {
    status = "Enabled"
  }
}
resource "aws_s3_bucket_server_side_encryption_configuration" "data" {
  bucket = aws_s3_bucket.data.id
  rule {
    apply_server_side_encryption_by_default {
      sse_algorithm = "AES256"
    }
  }
}
resource "aws_s3_bucket_public_access_block" "data" {
  bucket                  = aws_s3_bucket.data.id
  block_public_acls       = true
  block_public_policy     = true
  ignore_public_acls      = true
  restrict_public_buckets = true
}
resource "aws_s3_bucket_policy" "data" {
  bucket = aws_s3_bucket.data.id
  policy = jsonencode({ Version = "2012-10-17", Statement = [{ Sid = "TlsOnly", Effect = "Deny", Principal = "*", Action = "s3:*", Resource = ["arn:aws:s3:::verdict-${var.suffix}/*"], Condition = { Bool = { "aws:SecureTransport" = "false" } } }] })
}
resource "aws_iam_role" "app" {
  name               = "app-${var.suffix}"
  assume_role_policy = local.trust
}
resource "aws_iam_policy" "app" {
  name   = "app-${var.suffix}"
  policy = local.read
}
resource "aws_iam_role_policy" "inline" {
  name   = "inline"
  role   = aws_iam_role.app.id
  policy = local.read
}
resource "aws_iam_role_policy_attachment" "app" {
  role       = aws_iam_role.app.name
  policy_arn = aws_iam_policy.app.arn
}
resource "aws_iam_instance_profile" "app" {
  name = "app-${var.suffix}"
  role = aws_iam_role.app.name
}
resource "aws_iam_user" "ci" {
  name = "ci-${var.suffix}"
  tags = { Team = "platform" }
}
resource "aws_iam_group" "devs" {
  name = "devs-${var.suffix}"
}
resource "aws_iam_user_policy" "ci" {
  name   = "ci"
  user   = aws_iam_user.ci.name
  policy = local.read
}
resource "aws_iam_user_policy_attachment" "ci" {
  user       = aws_iam_user.ci.name
  policy_arn = aws_iam_policy.app.arn
}
resource "aws_iam_access_key" "ci" {
  user = aws_iam_user.ci.name
}
resource "aws_sqs_queue" "jobs" {
  name                       = "jobs-${var.suffix}"
  visibility_timeout_seconds = 60
}
resource "aws_sqs_queue" "dead" {
  name = "dead-${var.suffix}"
}
resource "aws_sns_topic" "alerts" {
  name = "alerts-${var.suffix}"
}
