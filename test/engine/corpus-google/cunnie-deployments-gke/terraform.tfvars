project_id          = "blabbertabber"
friendly_project_id = "nono"
region              = "us-central1"
zone                = "us-central1-f"
