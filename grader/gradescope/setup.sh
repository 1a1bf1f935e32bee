#!/usr/bin/env bash
# Gradescope runs this once, as root, when it builds the autograder image (Ubuntu).
# It installs the CPU and OpenCL toolchain (Gradescope has no GPU, so no CUDA), builds the
# instructor tree for lab @LAB@ once, then keeps the instructor's files away from students:
# the hidden test sources are deleted (their objects are in the prebuilt tree) and the kit is
# readable by root only. Student code later builds and runs as the unprivileged user kitstudent.
# AUTOGRADER_ROOT, KIT_SKIP_APT=1 and KIT_RUN_AS=user exist only to try the zip elsewhere.
set -euo pipefail
root=${AUTOGRADER_ROOT:-/autograder}
if [ "${KIT_SKIP_APT:-0}" != 1 ]; then
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq
  apt-get install -y -qq --no-install-recommends make g++ python3 libgtest-dev googletest \
    ocl-icd-opencl-dev opencl-headers opencl-clhpp-headers pocl-opencl-icd >/dev/null
fi
user=${KIT_RUN_AS:-kitstudent}
id "$user" >/dev/null 2>&1 || useradd --system --no-create-home --shell /usr/sbin/nologin "$user"
cd "$root/source"
python3 kit/grader/grade.py prebuild --kit kit --cache "$root/grader-cache" --lab @LAB@ --no-cuda
rm -rf kit/tests/hidden kit/reference
chmod -R go-rwx "$root/source"
chmod 755 "$root"
chmod 711 "$root/grader-cache"  # passed through to public-matrices/ alone; the rest stays root's
