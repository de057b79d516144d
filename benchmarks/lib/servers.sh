# Loopback servers for the whole-process suites (benchmarks/cli, benchmarks/memory); sourced
# from the repository root. Each suite kills what it started in its own EXIT trap.

free_port() {
  python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])'
}

# start_sshd DIR: an OpenSSH sshd on a free loopback port (internal-sftp, key login only), its
# files in DIR (emptied first): DIR/client is the user's key, DIR/known_hosts knows the host,
# DIR/sshd.pid the daemon. Sets SSHD_PORT.
start_sshd() {
  local dir=$1
  rm -rf "$dir"; mkdir -p "$dir" /run/sshd
  ssh-keygen -q -t ecdsa -N "" -f "$dir/host"; ssh-keygen -q -t ecdsa -N "" -f "$dir/client"
  cp "$dir/client.pub" "$dir/authorized_keys"
  SSHD_PORT=$(free_port)
  cat > "$dir/sshd_config" <<C
Port $SSHD_PORT
ListenAddress 127.0.0.1
HostKey $dir/host
PidFile $dir/sshd.pid
AuthorizedKeysFile $dir/authorized_keys
StrictModes no
UsePAM no
PasswordAuthentication no
KbdInteractiveAuthentication no
PermitRootLogin prohibit-password
Subsystem sftp internal-sftp
LogLevel ERROR
C
  /usr/sbin/sshd -f "$dir/sshd_config"
  for _ in $(seq 50); do [ -s "$dir/sshd.pid" ] && break; sleep 0.1; done
  echo "[127.0.0.1]:$SSHD_PORT $(cat "$dir/host.pub")" > "$dir/known_hosts"
}

# start_s3proxy DIR PROVIDER IDENTITY CREDENTIAL: s3proxy (jclouds PROVIDER: transient or
# filesystem, its data in DIR) as a process on the s3 module's test class path, on a free
# loopback port, answering once this returns. Sets S3PROXY_PORT and S3PROXY_PID.
start_s3proxy() {
  local dir=$1 provider=$2 identity=$3 credential=$4
  local cp=benchmarks/target/s3proxy.classpath
  [ -s "$cp" ] || ./mvnw -q -B dependency:build-classpath -pl s3 -Dmdep.includeScope=test -Dmdep.outputFile="$PWD/$cp" >&2
  S3PROXY_PORT=$(free_port)
  rm -rf "$dir"; mkdir -p "$dir"
  cat > "$dir.conf" <<C
s3proxy.endpoint=http://127.0.0.1:$S3PROXY_PORT
s3proxy.authorization=aws-v2-or-v4
s3proxy.identity=$identity
s3proxy.credential=$credential
s3proxy.ignore-unknown-headers=true
jclouds.provider=$provider
jclouds.identity=x
jclouds.credential=y
jclouds.filesystem.basedir=$dir
C
  # Logging at WARN: logback's default (DEBUG, every Jetty event of every request) slowed the
  # server both tools are measured against.
  "$(cat cli/target/rpath.java-home)/bin/java" -Xmx1g -Dlogback.configurationFile="$PWD/benchmarks/lib/s3proxy-logback.xml" \
    -cp "$(cat "$cp")" org.gaul.s3proxy.Main \
    --properties "$dir.conf" > "$dir.log" 2>&1 &
  S3PROXY_PID=$!
  for _ in $(seq 100); do curl -s -o /dev/null "http://127.0.0.1:$S3PROXY_PORT/" && break; sleep 0.2; done
}

# start_azurite DIR: Azurite's blob service (npm, where .ci/run installs it) on a free loopback
# port, its data in memory. Sets AZURITE_PORT and AZURITE_PID.
start_azurite() {
  local dir=$1
  local bin="${RPATH_NPM_PREFIX:-$HOME/.cache/remotepath-npm}/node_modules/.bin/azurite-blob"
  [ -x "$bin" ] || { echo "azurite is not installed ($bin; .ci/run installs it)" >&2; return 1; }
  AZURITE_PORT=$(free_port)
  rm -rf "$dir"; mkdir -p "$dir"
  (cd "$dir" && exec "$bin" --blobHost 127.0.0.1 --blobPort "$AZURITE_PORT" --inMemoryPersistence --skipApiVersionCheck \
    --disableProductStyleUrl --silent > "$dir/azurite.log" 2>&1) &
  AZURITE_PID=$!
  for _ in $(seq 100); do curl -s -o /dev/null "http://127.0.0.1:$AZURITE_PORT/" && break; sleep 0.2; done
  kill -0 "$AZURITE_PID" 2> /dev/null || { echo "azurite did not start: $(cat "$dir/azurite.log")" >&2; return 1; }
}

# start_webdav DIR SERVER: a WebDAV server on a free loopback port serving DIR/root read-write:
# apache2 (mod_dav_fs, which keeps dead properties; run as root it serves as nobody) or rclone
# (rclone serve webdav, which keeps none). Sets WEBDAV_PORT and WEBDAV_PID.
start_webdav() {
  local dir=$1 server=$2
  WEBDAV_PORT=$(free_port)
  rm -rf "$dir"; mkdir -p "$dir/root"; chmod 777 "$dir" "$dir/root"
  case $server in
    apache2)
      local m=/usr/lib/apache2/modules
      cat > "$dir/httpd.conf" <<C
ServerRoot $dir
Listen 127.0.0.1:$WEBDAV_PORT
ServerName localhost
PidFile $dir/httpd.pid
ErrorLog $dir/error.log
Mutex file:$dir default
LoadModule mpm_event_module $m/mod_mpm_event.so
LoadModule authz_core_module $m/mod_authz_core.so
LoadModule dav_module $m/mod_dav.so
LoadModule dav_fs_module $m/mod_dav_fs.so
User nobody
Group nogroup
DavLockDB $dir/davlock
DocumentRoot "$dir/root"
<Directory "$dir/root">
  Dav On
  Require all granted
</Directory>
C
      /usr/sbin/apache2 -d "$dir" -f "$dir/httpd.conf" -D FOREGROUND > "$dir/out.log" 2>&1 &
      ;;
    rclone)
      rclone serve webdav "$dir/root" --config /dev/null --addr "127.0.0.1:$WEBDAV_PORT" > "$dir/out.log" 2>&1 &
      ;;
    *) echo "start_webdav: unknown server $server" >&2; return 1 ;;
  esac
  WEBDAV_PID=$!
  for _ in $(seq 100); do curl -s -o /dev/null "http://127.0.0.1:$WEBDAV_PORT/" && break; sleep 0.1; done
}

# start_ftp DIR: ProFTPD on a free loopback port, user "bench" (password "bench-pw", in its own
# AuthUserFile, as this user) chrooted to DIR/root, read-write, MFMT on. Sets FTP_PORT and FTP_PID.
start_ftp() {
  local dir=$1
  FTP_PORT=$(free_port)
  rm -rf "$dir"; mkdir -p "$dir/root"
  local hash; hash=$(openssl passwd -6 bench-pw)
  echo "bench:$hash:$(id -u):$(id -g)::$dir/root:/bin/sh" > "$dir/passwd"
  echo "$(id -gn):x:$(id -g):" > "$dir/group"
  chmod 600 "$dir/passwd" "$dir/group"
  cat > "$dir/proftpd.conf" <<C
ServerType standalone
ServerName "remotepath-bench"
Port $FTP_PORT
DefaultAddress 127.0.0.1
SocketBindTight on
UseIPv6 off
User $(id -un)
Group $(id -gn)
PidFile $dir/proftpd.pid
ScoreboardFile $dir/proftpd.scoreboard
DelayTable none
WtmpLog off
TransferLog none
SystemLog $dir/proftpd.log
UseReverseDNS off
RootLogin on
RequireValidShell off
AuthOrder mod_auth_file.c
AuthUserFile $dir/passwd
AuthGroupFile $dir/group
DefaultRoot ~
AllowOverwrite on
Umask 022
MaxInstances 200
C
  /usr/sbin/proftpd -n -c "$dir/proftpd.conf" > "$dir/out.log" 2>&1 &
  FTP_PID=$!
  for _ in $(seq 100); do (exec 3<> "/dev/tcp/127.0.0.1/$FTP_PORT") 2> /dev/null && break; sleep 0.1; done
}
