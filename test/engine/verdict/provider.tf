# The head of both halves of the verdict estate (workload.tf, services.tf; verdict/run.ts joins
# this file and one half into the main.tf it applies and scans): the region from a variable set
# in terraform.tfvars (the default names another region, so a scan that ignored tfvars would read
# in the wrong place). Names carry var.suffix: moto is shared.
variable "region" {
  type    = string
  default = "us-east-1"
}
variable "ami" { type = string }
variable "suffix" { type = string }

provider "aws" {
  region = var.region
}
