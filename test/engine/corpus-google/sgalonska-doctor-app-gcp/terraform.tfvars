project_id  = "another-doctor-471116"
region      = "us-central1"
environment = "prod"
app_name    = "another-doctor"
