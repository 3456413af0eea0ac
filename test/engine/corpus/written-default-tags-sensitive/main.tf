variable "aws_region" {
  type    = string
  default = "eu-west-1"
}

provider "aws" {
  region = var.aws_region
  default_tags {
    tags = {
      Environment = "prod"
      CostCenter  = "4410"
    }
  }
}

resource "aws_iam_role" "task" {
  name               = "app-task"
  assume_role_policy = jsonencode({ Version = "2012-10-17", Statement = [{ Effect = "Allow", Principal = { Service = "ecs-tasks.amazonaws.com" }, Action = "sts:AssumeRole" }] })
  tags               = { Name = "app-task" }
}

resource "aws_iam_role" "exec" {
  name               = "app-exec"
  assume_role_policy = aws_iam_role.task.assume_role_policy
}

resource "aws_iam_role_policy_attachment" "exec" {
  role       = aws_iam_role.exec.name
  policy_arn = "arn:aws:iam::aws:policy/service-role/AmazonECSTaskExecutionRolePolicy"
}

resource "aws_iam_role_policy" "read" {
  name   = "read-data"
  role   = aws_iam_role.exec.name
  policy = aws_iam_policy.read.policy
}

resource "aws_iam_policy" "read" {
  name   = "app-read"
  policy = jsonencode({ Version = "2012-10-17", Statement = [{ Action = ["s3:GetObject"], Effect = "Allow", Resource = ["arn:aws:s3:::app-data/*"] }] })
}

resource "random_password" "db" {
  length  = 24
  special = false
}

resource "aws_db_instance" "app" {
  identifier          = "app-db"
  engine              = "postgres"
  engine_version      = "15.4"
  instance_class      = "db.t3.micro"
  allocated_storage   = 20
  db_name             = "app"
  username            = "app"
  password            = random_password.db.result
  storage_encrypted   = true
  skip_final_snapshot = true
  tags                = { Name = "app-db" }
}

resource "aws_ssm_parameter" "api_key" {
  name  = "/app/api-key"
  type  = "SecureString"
  value = "sk_live_do_not_print"
}
