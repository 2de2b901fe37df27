#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation
import Sockets
import Testing

@Suite struct SocketsTests {
    @Test func addressesAreNumericLiterals() throws {
        #expect(SocketAddress(host: "127.0.0.1", port: 9099)?.description == "127.0.0.1:9099")
        #expect(SocketAddress(host: "localhost", port: 1)?.description == "127.0.0.1:1")
        let bracketed = try #require(SocketAddress(host: "[::1]", port: 2525))
        #expect(bracketed.isIPv6 && bracketed.host == "::1" && bracketed.description == "[::1]:2525")
        #expect(SocketAddress(host: "::", port: 0)?.isIPv6 == true)
        // Names are not looked up, and inet_pton's strict forms only.
        for host in ["example.com", "127.1", "", "[127.0.0.1]x", "fe80::1%lo"] {
            #expect(SocketAddress(host: host, port: 80) == nil, "\(host)")
        }
    }

    @Test func portZeroBindsAFreePortThatASecondBindFindsInUse() throws {
        let first = try ListeningSocket(SocketAddress(host: "127.0.0.1", port: 0)!)
        defer { close(first.descriptor) }
        #expect(first.port != 0 && first.address.description == "127.0.0.1:\(first.port)")
        let error = #expect(throws: SocketError.self) { try ListeningSocket(first.address) }
        #expect(error?.isAddressInUse == true)
        #expect(error?.description == "Address already in use")
    }

    @Test func aGreetingIsTheFirstLineTheServerSends() throws {
        let listener = try ListeningSocket(SocketAddress(host: "127.0.0.1", port: 0)!)
        let greeted = DispatchSemaphore(value: 0)
        Thread {
            var peer = sockaddr_storage()
            var length = socklen_t(0)
            let client = SystemSocket.acceptConnection(listener.descriptor, &peer, &length)
            SystemSocket.transmitAll(client, Array("220 mail.test ESMTP ready\r\n250 more\r\n".utf8))
            greeted.wait()  // open until the greeting was read, so the read sees the line and not a close
            close(client)
        }.start()
        #expect(listener.address.greeting(timeoutSeconds: 5) == "220 mail.test ESMTP ready")
        greeted.signal()
        close(listener.descriptor)
        #expect(listener.address.greeting(timeoutSeconds: 5) == nil)  // nothing listens there now
    }
}
