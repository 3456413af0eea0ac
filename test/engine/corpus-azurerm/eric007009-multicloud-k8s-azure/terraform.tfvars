appId    = "4155de6d-ae87-489f-be04-bc85798cedc4"
password = "Xxx0X~XX0xxXX0XXxXX0XxX0xX~0Xx0xXxXxxxXx"