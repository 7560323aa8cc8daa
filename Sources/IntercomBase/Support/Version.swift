public enum IntercomVersion { public static let string = "0.1.0" }
