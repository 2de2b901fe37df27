# Homebrew formula: builds auth-emulator from the checkout this file is in, on macOS, with
# Homebrew's libmicrohttpd, OpenSSL and SQLite and Xcode's Swift.
#
#   brew install --build-from-source ./Formula/auth-emulator.rb
#
# Homebrew versions that take formulae only from a tap: the checkout is one (it has Formula/),
#   brew tap local/auth-emulator "$PWD" && brew install --build-from-source local/auth-emulator/auth-emulator
#
# The source is the checkout's committed HEAD (a git clone of it); the version is the one the
# binary prints, read from Sources/BuildInfo/BuildInfo.swift. Checked on Linux only
# statically (Tests/python/test_package.py: Ruby's syntax check and the fields below).
class AuthEmulator < Formula
  CHECKOUT = File.expand_path("..", __dir__)

  desc "Local Firebase Authentication emulator in one native binary"
  homepage "https://firebase.google.com/docs/emulator-suite/connect_auth"
  url "file://#{CHECKOUT}", using: :git
  version File.read(File.join(CHECKOUT, "Sources/BuildInfo/BuildInfo.swift"))[/static let version = "([^"]+)"/, 1]

  # The three C libraries of Package.swift's system library targets (their `brew:` providers),
  # found through pkg-config; Swift 6 comes with Xcode 16.
  depends_on xcode: ["16.0", :build]
  depends_on "pkgconf" => :build
  depends_on "libmicrohttpd"
  depends_on "openssl@3"
  depends_on "sqlite"

  def install
    # SwiftPM's own sandbox cannot run inside Homebrew's.
    system "swift", "build", "--disable-sandbox", "-c", "release", "--product", "auth-emulator"
    bin.install ".build/release/auth-emulator"
  end

  test do
    assert_match "auth-emulator #{version}", shell_output("#{bin}/auth-emulator --version")
    port = free_port
    pid = spawn bin/"auth-emulator", "--port", port.to_s, "--project", "demo-brew"
    begin
      30.times do
        break if system("curl", "-sf", "-o", File::NULL, "http://127.0.0.1:#{port}/")

        sleep 1
      end
      assert_match(/"ready":\s*true/, shell_output("curl -s http://127.0.0.1:#{port}/"))
    ensure
      Process.kill("TERM", pid)
      Process.wait(pid)
    end
  end
end
