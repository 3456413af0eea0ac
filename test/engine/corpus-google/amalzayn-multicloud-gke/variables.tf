variable "project_id" {
  default = "symbolic-math-446906-f2"
}

variable "region" {
  default = "us-central1"
}

variable "cluster_name" {
  default = "my-cluster"
}