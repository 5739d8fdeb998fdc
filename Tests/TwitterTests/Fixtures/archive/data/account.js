window.YTD.account.part0 = [
  {
    "account" : {
      "email" : "kit@example.org",
      "createdVia" : "web",
      "username" : "kit_archivist",
      "accountId" : "987654321012345678",
      "createdAt" : "2012-05-06T07:08:09.000Z",
      "accountDisplayName" : "Kit Archivist"
    }
  }
]