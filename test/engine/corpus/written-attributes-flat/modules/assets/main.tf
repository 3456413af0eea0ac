variable "region" {
  default = "eu-west-1"
}

provider "aws" {
  region = "${var.region}"
}

resource "aws_s3_bucket" "this" {
  bucket = "legacy-assets-0d4"
  acl    = "private"
}
