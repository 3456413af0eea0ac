# The services half of the verdict estate (terraform-verdict-services.test.ts): S3, IAM, KMS,
# SQS, SNS, logs, DynamoDB, ECR and Route 53, none of them in a VPC: 25 resources of 24 types.
# network.tf holds the other 25 types; together the 49 types the engine reads natively
# (cloud/aws/index.ts), no type in both.
locals {
  trust = jsonencode({ Version = "2012-10-17", Statement = [{ Effect = "Allow", Principal = { Service = "ec2.amazonaws.com" }, Action = "sts:AssumeRole" }] })
  read  = jsonencode({ Version = "2012-10-17", Statement = [{ Effect = "Allow", Action = ["s3:GetObject"], Resource = ["arn:aws:s3:::verdict-${var.suffix}/*"] }] })
}
resource "aws_s3_bucket" "data" {
  bucket = "verdict-${var.suffix}"
  tags   = { Env = "test" }
}
resource "aws_s3_bucket_versioning" "data" {
  bucket = aws_s3_bucket.data.id
  versioning_configuration {
    status = "Enabled"
  }
}
resource "aws_s3_bucket_server_side_encryption_configuration" "data" {
  bucket = aws_s3_bucket.data.id
  rule {
    apply_server_side_encryption_by_default {
      sse_algorithm = "AES256"
    }
  }
}
resource "aws_s3_bucket_public_access_block" "data" {
  bucket                  = aws_s3_bucket.data.id
  block_public_acls       = true
  block_public_policy     = true
  ignore_public_acls      = true
  restrict_public_buckets = true
}
resource "aws_s3_bucket_policy" "data" {
  bucket = aws_s3_bucket.data.id
  policy = jsonencode({ Version = "2012-10-17", Statement = [{ Sid = "TlsOnly", Effect = "Deny", Principal = "*", Action = "s3:*", Resource = ["arn:aws:s3:::verdict-${var.suffix}/*"], Condition = { Bool = { "aws:SecureTransport" = "false" } } }] })
}
resource "aws_iam_role" "app" {
  name               = "app-${var.suffix}"
  assume_role_policy = local.trust
}
resource "aws_iam_policy" "app" {
  name   = "app-${var.suffix}"
  policy = local.read
}
resource "aws_iam_role_policy" "inline" {
  name   = "inline"
  role   = aws_iam_role.app.id
  policy = local.read
}
resource "aws_iam_role_policy_attachment" "app" {
  role       = aws_iam_role.app.name
  policy_arn = aws_iam_policy.app.arn
}
resource "aws_iam_instance_profile" "app" {
  name = "app-${var.suffix}"
  role = aws_iam_role.app.name
}
resource "aws_iam_user" "ci" {
  name = "ci-${var.suffix}"
  tags = { Team = "platform" }
}
resource "aws_iam_group" "devs" {
  name = "devs-${var.suffix}"
}
resource "aws_iam_user_policy" "ci" {
  name   = "ci"
  user   = aws_iam_user.ci.name
  policy = local.read
}
resource "aws_iam_user_policy_attachment" "ci" {
  user       = aws_iam_user.ci.name
  policy_arn = aws_iam_policy.app.arn
}
resource "aws_iam_access_key" "ci" {
  user = aws_iam_user.ci.name
}
resource "aws_kms_key" "app" {
  description             = "app"
  deletion_window_in_days = 7
}
resource "aws_kms_alias" "app" {
  name          = "alias/app-${var.suffix}"
  target_key_id = aws_kms_key.app.key_id
}
resource "aws_sqs_queue" "jobs" {
  name                       = "jobs-${var.suffix}"
  visibility_timeout_seconds = 60
}
resource "aws_sqs_queue" "dead" {
  name = "dead-${var.suffix}"
}
resource "aws_sns_topic" "alerts" {
  name = "alerts-${var.suffix}"
}
resource "aws_cloudwatch_log_group" "app" {
  name              = "/app/${var.suffix}"
  retention_in_days = 14
}
resource "aws_dynamodb_table" "items" {
  name         = "items-${var.suffix}"
  billing_mode = "PAY_PER_REQUEST"
  hash_key     = "id"
  attribute {
    name = "id"
    type = "S"
  }
}
resource "aws_ecr_repository" "app" {
  name                 = "app-${var.suffix}"
  image_tag_mutability = "MUTABLE"
}
resource "aws_route53_zone" "main" {
  name = "verdict-${var.suffix}.example"
}
resource "aws_route53_record" "www" {
  zone_id = aws_route53_zone.main.zone_id
  name    = "www.verdict-${var.suffix}.example"
  type    = "A"
  ttl     = 300
  records = ["10.40.1.10"]
}
