terraform {
  required_providers {
    google = {
      source = "hashicorp/google"
    }
  }

  required_version = "~> 1.0"
}

