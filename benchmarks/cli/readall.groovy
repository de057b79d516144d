// Reads every file of a directory one by one through newInputStream (as a script or library
// user would), and prints the bytes read and the time it took (docs/benchmarks.md, "SFTP
// downloads pipelined as OpenSSH's client does"):
//   bin/rpath [--sftp-client=mina|sshj] script benchmarks/cli/readall.groovy sftp://host/dir
def dir = paths.get(args[0])
long total = 0
long t0 = System.nanoTime()
for (f in dir.list()) { total += f.path().newInputStream().withCloseable { it.readAllBytes().length } }
out.println("bytes " + total + " in " + ((System.nanoTime() - t0).intdiv(1000000)) + " ms")
