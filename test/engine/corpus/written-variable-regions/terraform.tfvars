region = "eu-central-1"
