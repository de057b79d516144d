#!/usr/bin/env bash
# Whole-process (docs/benchmarks.md): rpath cp -r / rpath sync vs rclone copy vs sftp -b put -r, 1000 x 4 KiB, loopback OpenSSH.
set -euo pipefail
W=/tmp/cli-bench/w; rm -rf $W; mkdir -p $W/src $W/up
for i in $(seq 0 999); do head -c 4096 /dev/urandom > $W/src/f$i.bin; done
ssh-keygen -q -t ecdsa -N "" -f $W/host; ssh-keygen -q -t ecdsa -N "" -f $W/client
cp $W/client.pub $W/authorized_keys; PORT=2399
cat > $W/sshd_config <<C
Port $PORT
ListenAddress 127.0.0.1
HostKey $W/host
PidFile $W/sshd.pid
AuthorizedKeysFile $W/authorized_keys
StrictModes no
UsePAM no
PasswordAuthentication no
KbdInteractiveAuthentication no
PermitRootLogin prohibit-password
Subsystem sftp internal-sftp
LogLevel ERROR
C
mkdir -p /run/sshd; /usr/sbin/sshd -f $W/sshd_config; sleep 0.5
echo "[127.0.0.1]:$PORT $(cat $W/host.pub)" > $W/known_hosts
export RCLONE_CONFIG_B_TYPE=sftp RCLONE_CONFIG_B_HOST=127.0.0.1 RCLONE_CONFIG_B_PORT=$PORT RCLONE_CONFIG_B_USER=root RCLONE_CONFIG_B_KEY_FILE=$W/client RCLONE_CONFIG_B_KNOWN_HOSTS_FILE=$W/known_hosts
t() { local s=$(date +%s.%N); "$@" > /dev/null 2>&1 || echo "FAILED: $*" >&2; echo "$(date +%s.%N) - $s" | bc; }
for rep in 1 2 3 4 5; do
  d=$W/up/r$rep
  a=$(t "$(dirname "$0")/../bin/rpath" --identity=$W/client --known-hosts=$W/known_hosts cp -r $W/src sftp://root@127.0.0.1:$PORT$d-cp)
  b=$(t "$(dirname "$0")/../bin/rpath" --identity=$W/client --known-hosts=$W/known_hosts sync $W/src sftp://root@127.0.0.1:$PORT$d-sync)
  c=$(t rclone copy --config /dev/null --sftp-disable-hashcheck $W/src B:$d-rclone)
  mkdir -p $d-sftp
  e=$(t sftp -q -b <(echo "put -r $W/src/. $d-sftp") -i $W/client -o UserKnownHostsFile=$W/known_hosts -P $PORT root@127.0.0.1)
  echo "rep $rep rpath-cp $a rpath-sync $b rclone $c sftp-b $e"
done
ls $W/up/r1-cp | wc -l; ls $W/up/r1-sync | wc -l; ls $W/up/r1-rclone | wc -l; ls $W/up/r1-sftp | wc -l
kill $(cat $W/sshd.pid)
