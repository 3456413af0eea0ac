# The provider block that placed written-iam-ops-long-tail.tfstate (resources abridged: the state
# holds what `terraform apply` wrote for them).
provider "aws" {
  region = "eu-west-1"
}
