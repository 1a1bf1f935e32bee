# Source this file (". scripts/setup/opencl_env.sh") to make NVIDIA's OpenCL visible when the
# driver ships libnvidia-opencl.so.1 but no nvidia.icd is registered under
# /etc/OpenCL/vendors (common in containers and on some cluster nodes). It builds a vendor
# folder holding nvidia.icd plus the system's own .icd files, and points OCL_ICD_VENDORS
# at it. It changes nothing when NVIDIA's ICD is already registered or absent.
kit_nv_lib=$(ldconfig -p 2>/dev/null | awk '/libnvidia-opencl\.so\.1/{print $NF; exit}')
[ -z "$kit_nv_lib" ] && for d in /usr/local/nvidia/lib64 /usr/lib/x86_64-linux-gnu /usr/lib64; do
  [ -e "$d/libnvidia-opencl.so.1" ] && kit_nv_lib="$d/libnvidia-opencl.so.1" && break
done
if [ -n "$kit_nv_lib" ] && ! grep -qs nvidia /etc/OpenCL/vendors/*.icd && [ -z "${OCL_ICD_VENDORS:-}" ]; then
  kit_icd_dir="${TMPDIR:-/tmp}/kit-icd-$(id -u)"
  mkdir -p "$kit_icd_dir"
  cp /etc/OpenCL/vendors/*.icd "$kit_icd_dir"/ 2>/dev/null || true
  echo "$kit_nv_lib" > "$kit_icd_dir/nvidia.icd"
  export OCL_ICD_VENDORS="$kit_icd_dir"
  echo "opencl_env: registered NVIDIA OpenCL ($kit_nv_lib) through OCL_ICD_VENDORS=$kit_icd_dir"
fi
unset kit_nv_lib kit_icd_dir
