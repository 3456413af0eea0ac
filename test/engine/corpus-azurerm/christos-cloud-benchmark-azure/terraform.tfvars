resource_group_name    = "cloud-benchmark-rg"
blob_container_name    = "results"
container_group_name   = "cloud-benchmark-scraper"
docker_image           = "chrisworkspace/cloudbenchmark-scraper:latest"
