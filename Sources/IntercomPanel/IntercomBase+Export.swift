@_exported import IntercomBase
