#!/usr/bin/env bash
# Installs Mesa 25's lavapipe (software Vulkan) from bookworm-backports on Debian 12, the adapter
# the tests and the quick start run on where no GPU is present. Debian 12's own Mesa 22 silently
# stops every shader loop after 65535 iterations, so it is not enough.
set -euo pipefail
as_root() { if [ "$(id -u)" -eq 0 ]; then "$@"; else sudo "$@"; fi; }
export DEBIAN_FRONTEND=noninteractive
if vulkaninfo --summary 2>/dev/null | grep -q "driverInfo *= Mesa 2[5-9]"; then
    exit 0
fi
if ! grep -rqs "bookworm-backports" /etc/apt/sources.list /etc/apt/sources.list.d/; then
    # Reuse the mirror this machine is already configured with.
    awk 'BEGIN{RS="";ORS="\n\n"} NR==1' /etc/apt/sources.list.d/debian.sources \
        | sed 's/^Suites:.*/Suites: bookworm-backports/' \
        | as_root tee /etc/apt/sources.list.d/backports.sources >/dev/null
fi
as_root apt-get update -q
as_root apt-get install -y -q --no-install-recommends -t bookworm-backports \
    mesa-vulkan-drivers libegl-mesa0 libgl1-mesa-dri
as_root apt-get install -y -q --no-install-recommends libvulkan1 vulkan-tools
vulkaninfo --summary 2>/dev/null | grep -E "deviceName|driverInfo" || true
