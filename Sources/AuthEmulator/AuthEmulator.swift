// The domain: to be written.
public enum AuthEmulatorVersion {
    public static let string = "0.1.0"
}
