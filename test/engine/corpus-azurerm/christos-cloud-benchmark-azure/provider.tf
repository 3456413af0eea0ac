# Configure the Azure provider
provider "azurerm" {
  features {}
}
