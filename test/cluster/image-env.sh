# Sourced by the image scripts: podman and buildah with a storage, configuration and registry list of
# their own under ~/.cache/streamroute/containers, so they never touch /etc/containers, the system's
# image store, or a registry (none is reachable: every image here is built locally).
# Needs: nothing set; sets CONTAINERS_CONF, CONTAINERS_STORAGE_CONF, CONTAINERS_REGISTRIES_CONF.

image_cache="${STREAMROUTE_IMAGE_CACHE:-$HOME/.cache/streamroute/images}"
containers_root="${STREAMROUTE_CONTAINERS_ROOT:-$HOME/.cache/streamroute/containers}"
mkdir -p "$image_cache" "$containers_root/storage" "$containers_root/run" "$containers_root/tmp"

# The sandbox may not raise RLIMIT_NPROC/NOFILE: with podman's default ulimits every container fails
# to start. No systemd here: cgroupfs and a file event log. runc, not crun: on a cgroup v1 host that also
# mounts the v2 hierarchy (hybrid), crun refuses to create any container ("cgroups in hybrid mode not
# supported"); runc runs there, and is what the test cluster's containerd uses anyway.
cat >"$containers_root/containers.conf" <<CONF
[containers]
default_ulimits = []
[engine]
cgroup_manager = "cgroupfs"
runtime = "runc"
events_logger = "file"
events_logfile_path = "$containers_root/events.log"
image_copy_tmp_dir = "$containers_root/tmp"
CONF

# overlay is much faster and smaller than vfs (which copies every layer whole); vfs only where the
# kernel refuses an overlay mount in this directory (say, ~/.cache itself on overlayfs). Probed once
# and remembered: a store cannot change its driver.
probe_overlay() {
  local dir
  dir="$(mktemp -d "$containers_root/tmp/overlay-probe.XXXXXX")"
  mkdir -p "$dir/lower" "$dir/upper" "$dir/work" "$dir/merged"
  if mount -t overlay overlay -o "lowerdir=$dir/lower,upperdir=$dir/upper,workdir=$dir/work" "$dir/merged" 2>/dev/null; then
    umount "$dir/merged"
    echo overlay
  else
    echo vfs
  fi
  rm -rf "$dir"
}
if [ -z "${STREAMROUTE_STORAGE_DRIVER:-}" ] && [ ! -s "$containers_root/driver" ]; then
  probe_overlay >"$containers_root/driver"
fi
storage_driver="${STREAMROUTE_STORAGE_DRIVER:-$(cat "$containers_root/driver")}"
cat >"$containers_root/storage.conf" <<CONF
[storage]
driver = "$storage_driver"
graphroot = "$containers_root/storage"
runroot = "$containers_root/run"
CONF

# No registry: an unqualified name must fail at once instead of being looked up on docker.io.
cat >"$containers_root/registries.conf" <<CONF
unqualified-search-registries = []
short-name-mode = "disabled"
CONF

export CONTAINERS_CONF="$containers_root/containers.conf"
export CONTAINERS_STORAGE_CONF="$containers_root/storage.conf"
export CONTAINERS_REGISTRIES_CONF="$containers_root/registries.conf"
export TMPDIR="$containers_root/tmp"
