# Terraform 0.11 syntax, as the configuration stood when this state was upgraded.
provider "aws" {
  alias  = "oregon"
  region = "us-west-2"
}

module "assets" {
  source = "./modules/assets"
}

resource "aws_security_group" "web" {
  provider    = "aws.oregon"
  name        = "legacy-web"
  description = "legacy web"
  vpc_id      = "vpc-0d4"
  tags {
    Name = "legacy-web"
  }
}
