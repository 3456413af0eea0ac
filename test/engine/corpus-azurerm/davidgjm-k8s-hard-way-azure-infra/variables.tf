variable "region" {
  default = "eastus2"
}

variable "resource_group_name" {
  default = "kthws"
}