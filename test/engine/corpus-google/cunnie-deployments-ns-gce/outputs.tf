output "region" {
  value       = var.region
  description = "GCloud Region"
}

output "zone" {
  value       = var.zone
  description = "GCloud Zone which has our cluster"
}

output "project_id" {
  value       = var.project_id
  description = "GCloud Project ID"
}
