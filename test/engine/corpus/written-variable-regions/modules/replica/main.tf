variable "region" {
  type = string
}

# A provider configured inside the module: the state names it module.replica.provider[...].west.
provider "aws" {
  alias  = "west"
  region = var.region
}

resource "aws_security_group_rule" "app_https" {
  provider          = aws.west
  type              = "ingress"
  from_port         = 443
  to_port           = 443
  protocol          = "tcp"
  cidr_blocks       = ["10.0.0.0/8"]
  security_group_id = "sg-0c33333333333333c"
}
