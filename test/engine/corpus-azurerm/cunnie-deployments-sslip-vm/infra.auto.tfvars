azurerm_storage_account_primary_blob_endpoint = "https://sslipio.blob.core.windows.net/"
managed_disk_id = "/subscriptions/a1ac8d5a-7a97-4ed5-bfd1-d7822e19cae9/resourceGroups/sslip.io/providers/Microsoft.Compute/disks/sslip.io-etcd-data"
network_interface_id = "/subscriptions/a1ac8d5a-7a97-4ed5-bfd1-d7822e19cae9/resourceGroups/sslip.io/providers/Microsoft.Network/networkInterfaces/sslip.io"
resource_group_name = "sslip.io"
