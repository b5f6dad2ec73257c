#!/usr/bin/env bash
# Builds the two local base images the Dockerfile takes as build arguments where no image registry is reachable:
#
#   partner-api-node:20-local        Debian bookworm (minbase, ca-certificates) + this machine's Node runtime
#   partner-api-node:20-local-build  the same + npm, Node's headers, python3, make and g++ (better-sqlite3 builds
#                                    from source when its prebuilt binary cannot be downloaded)
#
# Debian packages come through mmdebstrap (apt-get install mmdebstrap), Node from this machine (`command -v node`,
# its npm and headers), so nothing is pulled from a registry. The machine's CA bundle goes in too, so npm inside the
# build trusts what npm on the machine trusts. Needs root (mmdebstrap --mode=root) and a Docker-compatible engine.
#
# Usage: release/local-base.sh [--force]   (without --force an image already present is kept)
set -euo pipefail

RUNTIME_TAG=partner-api-node:20-local
BUILD_TAG=partner-api-node:20-local-build
SUITE=bookworm
force=false
[[ ${1:-} == --force ]] && force=true

node_bin=$(readlink -f "$(command -v node)")
node_prefix=$(dirname "$(dirname "$node_bin")")
npm_dir="$node_prefix/lib/node_modules/npm"
headers="$node_prefix/include/node"
ca_bundle=/etc/ssl/certs/ca-certificates.crt
for needed in "$npm_dir/bin/npm-cli.js" "$headers/node.h" "$ca_bundle"; do
  [[ -e $needed ]] || { echo "local-base: $needed not found" >&2; exit 2; }
done
command -v mmdebstrap >/dev/null || { echo "local-base: mmdebstrap missing (apt-get install -y mmdebstrap)" >&2; exit 2; }
node_major=$("$node_bin" -p 'process.versions.node.split(".")[0]')
[[ $node_major == 20 ]] || echo "local-base: note: this machine's Node is $node_major, the tags say 20" >&2

present() { docker image inspect "$1" >/dev/null 2>&1; }

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# build_base TAG EXTRA_PACKAGES WITH_NPM
build_base() {
  local tag=$1 packages=$2 with_npm=$3
  if ! $force && present "$tag"; then echo "local-base: $tag present"; return; fi
  local hooks=(
    --customize-hook="copy-in $node_bin /usr/bin"
    --customize-hook="upload $ca_bundle /etc/ssl/certs/ca-certificates.crt"
    # No apt lists or caches in the image.
    --customize-hook='rm -rf "$1"/var/lib/apt/lists/* "$1"/var/cache/apt/*'
  )
  if $with_npm; then
    hooks+=(
      --customize-hook="mkdir -p \"\$1/usr/lib/node_modules/npm\" \"\$1/usr/include/node\""
      --customize-hook="sync-in $npm_dir /usr/lib/node_modules/npm"
      --customize-hook="sync-in $headers /usr/include/node"
      --customize-hook='chroot "$1" ln -sf ../lib/node_modules/npm/bin/npm-cli.js /usr/bin/npm'
      --customize-hook='chroot "$1" ln -sf ../lib/node_modules/npm/bin/npx-cli.js /usr/bin/npx'
    )
  fi
  echo "local-base: building $tag (mmdebstrap $SUITE: ca-certificates${packages:+,$packages})"
  mmdebstrap --quiet --mode=root --variant=minbase --include="ca-certificates${packages:+,$packages}" \
    "${hooks[@]}" "$SUITE" "$work/rootfs.tar"
  # NODE_EXTRA_CA_CERTS: Node (and so npm) trusts its own bundle only; this adds the system's.
  docker import \
    --change 'ENV PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin' \
    --change 'ENV NODE_EXTRA_CA_CERTS=/etc/ssl/certs/ca-certificates.crt' \
    --change "ENV npm_config_nodedir=/usr" \
    --change 'CMD ["node"]' \
    "$work/rootfs.tar" "$tag" >/dev/null
  rm -f "$work/rootfs.tar"
  echo "local-base: $tag built"
}

build_base "$RUNTIME_TAG" "" false
build_base "$BUILD_TAG" "python3,make,g++" true
