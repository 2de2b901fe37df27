// Checks scripts/tsan.supp, built with -sanitize=thread by scripts/sanitize thread:
//
//   tsan-probe mutex   four threads add 1 under one contended Synchronization.Mutex; exits 1
//                      unless the total is exact (the lock excludes). With the suppressions
//                      TSan must stay quiet; without them it reports the futex false positive.
//   tsan-probe race    the same without any lock: a real race, which TSan must still report
//                      with the suppressions loaded (they are not a blanket).
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Synchronization

let threadCount = 4
let rounds = 20_000

/// Shared by the probe's threads, through the Mutex only.
final class LockedCounter: Sendable {
    let count = Mutex(0)
}

/// Shared without any synchronization: the data race the probe wants TSan to find.
nonisolated(unsafe) var unlockedCount = 0

let counter = LockedCounter()
let locked = CommandLine.arguments.dropFirst().first == "mutex"

func work(_: UnsafeMutableRawPointer?) -> UnsafeMutableRawPointer? {
    for _ in 0..<rounds {
        if locked {
            counter.count.withLock { $0 += 1 }
        } else {
            unlockedCount += 1
        }
    }
    return nil
}

var threads: [pthread_t] = []
for _ in 0..<threadCount {
    var thread = pthread_t()
    guard pthread_create(&thread, nil, { work($0) }, nil) == 0 else { fatalError("pthread_create failed") }
    threads.append(thread)
}
for thread in threads { pthread_join(thread, nil) }

let total = locked ? counter.count.withLock { $0 } : unlockedCount
print("tsan-probe: \(locked ? "mutex" : "race") total \(total) of \(threadCount * rounds)")
exit(!locked || total == threadCount * rounds ? 0 : 1)
