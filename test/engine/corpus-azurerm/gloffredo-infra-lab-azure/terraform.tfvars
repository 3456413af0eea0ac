aks_service_principal_app_id = ""
aks_service_principal_client_secret = ""