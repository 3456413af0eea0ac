# The provider block that placed written-iam-ops-older-provider.tfstate (Terraform 0.12, provider 2.x/3.x).
provider "aws" {
  region = "us-west-2"
}
