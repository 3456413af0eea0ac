# The services half of the verdict estate (terraform-verdict-services.test.ts): a load balancer
# in a VPC of its own, KMS, logs, DynamoDB, ECR and Route 53: 14 resources of 13 types.
# workload.tf holds the other 36 types (VPC, subnet and group are in both); together the 49 types
# the engine reads natively (cloud/aws/index.ts).
resource "aws_kms_key" "app" {
  description             = "app"
  deletion_window_in_days = 7
}
resource "aws_kms_alias" "app" {
  name          = "alias/app-${var.suffix}"
  target_key_id = aws_kms_key.app.key_id
}
resource "aws_cloudwatch_log_group" "app" {
  name              = "/app/${var.suffix}"
  retention_in_days = 14
}
resource "aws_dynamodb_table" "items" {
  name         = "items-${var.suffix}"
  billing_mode = "PAY_PER_REQUEST"
  hash_key     = "id"
  attribute {
    name = "id"
    type = "S"
  }
}
resource "aws_ecr_repository" "app" {
  name                 = "app-${var.suffix}"
  image_tag_mutability = "MUTABLE"
}
resource "aws_route53_zone" "main" {
  name = "verdict-${var.suffix}.example"
}
resource "aws_route53_record" "www" {
  zone_id = aws_route53_zone.main.zone_id
  name    = "www.verdict-${var.suffix}.example"
  type    = "A"
  ttl     = 300
  records = ["10.40.1.10"]
}
# The load balancer in a VPC of its own. The provider sleeps 30 s twice in aws_lb's create, so the
# balancer's chain sets this half's apply time: its VPC leaves DNS hostnames off (aws_vpc.main
# turns them on, and the provider then sleeps 10 s more before the subnets can start).
resource "aws_vpc" "edge" {
  cidr_block = "10.41.0.0/16"
  tags       = { Name = "edge-${var.suffix}" }
}
resource "aws_subnet" "edge_a" {
  vpc_id            = aws_vpc.edge.id
  cidr_block        = "10.41.1.0/24"
  availability_zone = "${var.region}a"
}
resource "aws_subnet" "edge_b" {
  vpc_id            = aws_vpc.edge.id
  cidr_block        = "10.41.2.0/24"
  availability_zone = "${var.region}b"
}
resource "aws_security_group" "edge" {
  name        = "edge-${var.suffix}"
  description = "edge"
  vpc_id      = aws_vpc.edge.id
  ingress {
    from_port   = 80
    to_port     = 80
    protocol    = "tcp"
    cidr_blocks = ["0.0.0.0/0"]
  }
}
resource "aws_lb" "web" {
  name               = "web-${var.suffix}"
  load_balancer_type = "application"
  subnets            = [aws_subnet.edge_a.id, aws_subnet.edge_b.id]
  security_groups    = [aws_security_group.edge.id]
}
resource "aws_lb_target_group" "web" {
  name     = "web-${var.suffix}"
  port     = 80
  protocol = "HTTP"
  vpc_id   = aws_vpc.edge.id
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
