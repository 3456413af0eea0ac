variable "region" {
  type    = string
  default = "us-west-2"
}

locals {
  dr_region = "ap-southeast-2"
}

provider "aws" {
  region = var.region # terraform.tfvars sets eu-central-1
  default_tags {
    tags = { Stack = "regions" }
  }
}

provider "aws" {
  alias  = "dr"
  region = local.dr_region
  default_tags {
    tags = { Stack = "regions" }
  }
}

module "replica" {
  source = "./modules/replica"
  region = "ca-central-1"
}

resource "aws_security_group" "main" {
  name        = "main"
  description = "main"
  vpc_id      = "vpc-0a1"
  tags        = { Name = "main" }
}

resource "aws_security_group_rule" "main_https" {
  type              = "ingress"
  from_port         = 443
  to_port           = 443
  protocol          = "tcp"
  cidr_blocks       = ["10.0.0.0/8"]
  security_group_id = aws_security_group.main.id
}

resource "aws_security_group" "dr" {
  provider    = aws.dr
  name        = "dr"
  description = "disaster recovery"
  vpc_id      = "vpc-0b2"
  tags        = { Name = "dr" }
}

resource "aws_security_group_rule" "dr_https" {
  provider          = aws.dr
  type              = "ingress"
  from_port         = 443
  to_port           = 443
  protocol          = "tcp"
  cidr_blocks       = ["10.0.0.0/8"]
  security_group_id = aws_security_group.dr.id
}
