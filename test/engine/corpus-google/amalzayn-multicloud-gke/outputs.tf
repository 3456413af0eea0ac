output "cluster_name" {
  value = google_container_cluster.primary.name
}

output "region" {
  value = var.region
}

output "endpoint" {
  value = google_container_cluster.primary.endpoint
}
