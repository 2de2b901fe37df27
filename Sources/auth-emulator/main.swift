import AuthEmulator
print("auth-emulator \(AuthEmulatorVersion.string)")
