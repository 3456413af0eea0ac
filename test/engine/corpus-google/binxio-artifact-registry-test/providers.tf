provider "google-beta" {
  region = "europe-west3"
}
