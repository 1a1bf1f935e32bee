# Where the kit finds its dependencies (included by the top-level Makefile before its features).
# GoogleTest, Google Benchmark, OpenCL, zlib and bzip2 are looked for where clusters keep them.
# The header and the library are each taken from the first place that has them:
#   1. NAME_ROOT, or an alias below (GTEST_PREFIX, a module's NAME_HOME, EasyBuild's EBROOTNAME):
#      one or more prefixes (colon-separated) holding include/ and lib64/ or lib/. When set,
#      it is the only place looked at, and the error says what it lacks.
#   2. pkg-config (PKG_CONFIG_PATH, which modules, conda and Spack views set)
#   3. the compiler's own search path: /usr, and CPATH, CPLUS_INCLUDE_PATH, LIBRARY_PATH (module load)
#   4. $CONDA_PREFIX, a Spack environment's view ($SPACK_ENV), CMAKE_PREFIX_PATH, /usr/local,
#      /usr/lib64, /opt/local, and for OpenCL the CUDA Toolkit ($CUDA_HOME, where its cuda-opencl component put CL/cl.h and libOpenCL.so)
# A place outside the compiler's search path adds -isystem, -L and an rpath, so the programs
# run without LD_LIBRARY_PATH. `make deps-info` prints what was found where; V=1 shows the flags.
PKG_CONFIG ?= pkg-config
MPICXX ?= $(firstword $(shell command -v mpicxx mpic++ 2>/dev/null))
kit_colon  := :
dep_split   = $(subst $(kit_colon), ,$(1))
# The compiler's search path, as it reports it (CPATH and LIBRARY_PATH included).
CXX_INC_DIRS := $(abspath $(shell $(CXX) -xc++ -E -v /dev/null 2>&1 | sed -n '/^\#include <...> search starts here:/,/^End of search list/{/^ /p}'))
CXX_LIB_DIRS := $(abspath $(call dep_split,$(shell $(CXX) -print-search-dirs 2>/dev/null | sed -n 's/^libraries: =//p')))
# Library folders the loader also searches: no rpath needed for these.
CXX_SYS_LIB_DIRS := $(filter-out $(abspath $(call dep_split,$(LIBRARY_PATH))),$(CXX_LIB_DIRS))
DEP_MULTIARCH := $(shell $(CXX) -print-multiarch 2>/dev/null)
DEP_PREFIXES := $(CONDA_PREFIX) $(if $(SPACK_ENV),$(SPACK_ENV)/.spack-env/view) $(call dep_split,$(CMAKE_PREFIX_PATH)) /usr/local /usr /opt/local
dep_inc_of  = $(foreach p,$(1),$(p)/include)
dep_lib_of  = $(foreach p,$(1),$(p)/lib64 $(p)/lib $(if $(DEP_MULTIARCH),$(p)/lib/$(DEP_MULTIARCH)))
dep_has_pc  = $(shell $(PKG_CONFIG) --exists $(1) 2>/dev/null && echo 1)
dep_pc_dirs = $(patsubst $(2)%,%,$(filter $(2)%,$(shell $(PKG_CONFIG) $(3) $(1) 2>/dev/null))) $(shell $(PKG_CONFIG) --variable=$(4) $(1) 2>/dev/null)
# $(call dep_first,DIRS,FILES): the first of DIRS holding one of FILES
dep_first   = $(firstword $(foreach d,$(1),$(if $(wildcard $(addprefix $(d)/,$(2))),$(d))))

# $(call find_dep,ID,NAME,PKG-CONFIG NAMES,HEADER,LIBRARY,ROOT VARIABLES,MORE PREFIXES) sets
# HAVE_ID (1/0), ID_CFLAGS, ID_LDLIBS, ID_FROM (where it was found) and ID_WHY (why it was not).
define find_dep
$(1)_ROOTVAR := $$(firstword $$(foreach v,$(6),$$(if $$(strip $$($$(v))),$$(v))))
$(1)_ROOT_DIRS := $$(if $$($(1)_ROOTVAR),$$(abspath $$(call dep_split,$$($$($(1)_ROOTVAR)))))
$(1)_PC := $$(if $$($(1)_ROOTVAR),,$$(foreach p,$(3),$$(if $$(call dep_has_pc,$$(p)),$$(p))))
$(1)_PC_INC := $$(foreach p,$$($(1)_PC),$$(call dep_pc_dirs,$$(p),-I,--cflags-only-I,includedir))
$(1)_PC_LIB := $$(foreach p,$$($(1)_PC),$$(call dep_pc_dirs,$$(p),-L,--libs-only-L,libdir))
$(1)_INC_DIRS := $$(if $$($(1)_ROOTVAR),$$(call dep_inc_of,$$($(1)_ROOT_DIRS)),\
  $$($(1)_PC_INC) $$(CXX_INC_DIRS) $$(call dep_inc_of,$$(DEP_PREFIXES) $(7)))
$(1)_LIB_DIRS := $$(if $$($(1)_ROOTVAR),$$(call dep_lib_of,$$($(1)_ROOT_DIRS)),\
  $$($(1)_PC_LIB) $$(CXX_LIB_DIRS) $$(call dep_lib_of,$$(DEP_PREFIXES) /usr $(7)))
$(1)_INC := $$(call dep_first,$$($(1)_INC_DIRS),$(4))
$(1)_LIB := $$(call dep_first,$$($(1)_LIB_DIRS),lib$(5).so lib$(5).a lib$(5).dylib)
HAVE_$(1) := $$(if $$(and $$($(1)_INC),$$($(1)_LIB)),1,0)
$(1)_CFLAGS := $$(if $$(filter 1,$$(HAVE_$(1))),$$(if $$(filter $$($(1)_INC),$$(CXX_INC_DIRS)),,-isystem $$($(1)_INC)))
$(1)_LDLIBS := $$(if $$(filter 1,$$(HAVE_$(1))),$$(if $$(filter $$($(1)_LIB),$$(CXX_LIB_DIRS)),,-L$$($(1)_LIB)) \
  $$(if $$(filter $$($(1)_LIB),$$(CXX_SYS_LIB_DIRS)),,-Wl$$(comma)-rpath$$(comma)$$($(1)_LIB)) -l$(5))
$(1)_FROM := $$(if $$($(1)_ROOTVAR),$$($(1)_ROOTVAR)=$$($$($(1)_ROOTVAR)),$$(if $$(filter $$($(1)_LIB),$$($(1)_PC_LIB)),pkg-config $$(firstword $$($(1)_PC)),search path)): $(4) in $$($(1)_INC), lib$(5) in $$($(1)_LIB)
$(1)_MISSING := $$(if $$($(1)_INC),,include/$(4)$$(if $$($(1)_LIB),, and)) $$(if $$($(1)_LIB),,lib$(5).so or .a)
$(1)_WHY := $$(strip $$(if $$($(1)_ROOTVAR),$$($(1)_ROOTVAR)=$$($$($(1)_ROOTVAR)) lacks $$(strip $$($(1)_MISSING)) (looked in $$(strip $$($(1)_INC_DIRS) $$($(1)_LIB_DIRS))),\
  not found: $$(strip $$($(1)_MISSING))$$(if $$($(1)_INC), (header in $$($(1)_INC))); set $(firstword $(6))=<prefix> (the folder holding include/$(4) and lib/lib$(5).*) or add <prefix>/lib/pkgconfig to PKG_CONFIG_PATH))
endef
# dep_hint_ID: how to get one without root (and as root)
dep_hint_GTEST     = module load googletest; spack install googletest; conda install -c conda-forge gtest; as root: apt-get install libgtest-dev, dnf install gtest-devel
dep_hint_BENCHMARK = module load benchmark; spack install benchmark; conda install -c conda-forge benchmark; as root: apt-get install libbenchmark-dev, dnf install google-benchmark-devel
dep_hint_OPENCL    = a full CUDA Toolkit often has both (its cuda-opencl component: OPENCL_ROOT=$(CUDA_HOME)); spack install ocl-icd opencl-c-headers; conda install -c conda-forge ocl-icd opencl-headers; as root: apt-get install ocl-icd-opencl-dev opencl-headers, dnf install ocl-icd-devel opencl-headers
dep_hint_ZLIB      = module load zlib; spack install zlib; conda install -c conda-forge zlib; as root: apt-get install zlib1g-dev, dnf install zlib-devel
dep_hint_MPI       = module load openmpi; spack install openmpi; conda install -c conda-forge openmpi; as root: apt-get install libopenmpi-dev openmpi-bin, dnf install openmpi-devel
dep_hint_NCCL      = the CUDA Toolkit's or NVIDIA's libnccl2 and libnccl-dev packages (NCCL_ROOT=<prefix>); module load nccl; spack install nccl; conda install -c conda-forge nccl
dep_hint_BZIP2     = module load bzip2; spack install bzip2; conda install -c conda-forge bzip2; as root: apt-get install libbz2-dev, dnf install bzip2-devel
# The search runs once per build: a sub-make with the same settings (same DEP_KEY) takes its
# results from the environment, as exported here.
DEP_IDS := GTEST BENCHMARK OPENCL ZLIB BZIP2 MPI NCCL
DEP_KEY := $(CXX)|$(PKG_CONFIG)|$(PKG_CONFIG_PATH)|$(CPATH)|$(CPLUS_INCLUDE_PATH)|$(C_INCLUDE_PATH)|$(LIBRARY_PATH)|$(CONDA_PREFIX)|$(SPACK_ENV)|$(CMAKE_PREFIX_PATH)|$(CUDA_HOME)|$(MPICXX)|$(foreach v,GTEST_ROOT GTEST_PREFIX GOOGLETEST_ROOT GTEST_HOME GOOGLETEST_HOME EBROOTGOOGLETEST BENCHMARK_ROOT BENCHMARK_PREFIX GOOGLE_BENCHMARK_ROOT BENCHMARK_HOME EBROOTGOOGLEBENCHMARK OPENCL_ROOT OPENCL_PREFIX OPENCL_HOME OCL_ICD_ROOT EBROOTOCLMINICD ZLIB_ROOT ZLIB_PREFIX ZLIB_HOME EBROOTZLIB BZIP2_ROOT BZIP2_PREFIX BZIP2_HOME EBROOTBZIP2 NCCL_ROOT NCCL_HOME EBROOTNCCL,$($(v)))
ifneq ($(KIT_DEPS_KEY),$(DEP_KEY))
$(eval $(call find_dep,GTEST,GoogleTest,gtest,gtest/gtest.h,gtest,GTEST_ROOT GTEST_PREFIX GOOGLETEST_ROOT GTEST_HOME GOOGLETEST_HOME EBROOTGOOGLETEST))
$(eval $(call find_dep,OPENCL,OpenCL,OpenCL OpenCL-Headers,CL/cl.h,OpenCL,OPENCL_ROOT OPENCL_PREFIX OPENCL_HOME OCL_ICD_ROOT EBROOTOCLMINICD,$(CUDA_HOME)))
$(eval $(call find_dep,ZLIB,zlib,zlib,zlib.h,z,ZLIB_ROOT ZLIB_PREFIX ZLIB_HOME EBROOTZLIB))
$(eval $(call find_dep,BZIP2,bzip2,bzip2,bzlib.h,bz2,BZIP2_ROOT BZIP2_PREFIX BZIP2_HOME EBROOTBZIP2))
# Google Benchmark: for `make bench` only (bench/bench.mk).
$(eval $(call find_dep,BENCHMARK,Google Benchmark,benchmark,benchmark/benchmark.h,benchmark,BENCHMARK_ROOT BENCHMARK_PREFIX GOOGLE_BENCHMARK_ROOT BENCHMARK_HOME EBROOTGOOGLEBENCHMARK))
# MPI (lab 10): the wrapper compiler says its own flags (Open MPI: --showme, MPICH: -show),
# else pkg-config (ompi-c, mpich). NCCL: its header and library, the CUDA Toolkit's included.
MPI_SHOWME_C := $(if $(MPICXX),$(shell $(MPICXX) --showme:compile 2>/dev/null))
MPI_SHOWME_L := $(if $(MPICXX),$(shell $(MPICXX) --showme:link 2>/dev/null))
MPI_PC := $(firstword $(foreach p,ompi-c mpich,$(if $(call dep_has_pc,$(p)),$(p))))
HAVE_MPI := $(if $(MPI_SHOWME_L),1,$(if $(MPI_PC),1,0))
# The C API only: the deprecated C++ bindings of Open MPI and MPICH stay out (they warn).
MPI_CFLAGS := -DOMPI_SKIP_MPICXX=1 -DMPICH_SKIP_MPICXX=1 $(if $(MPI_SHOWME_L),$(MPI_SHOWME_C),$(if $(MPI_PC),$(shell $(PKG_CONFIG) --cflags $(MPI_PC))))
MPI_LDLIBS := $(if $(MPI_SHOWME_L),$(filter-out -lmpi_cxx,$(MPI_SHOWME_L)),$(if $(MPI_PC),$(shell $(PKG_CONFIG) --libs $(MPI_PC))))
MPI_FROM := $(if $(MPI_SHOWME_L),$(MPICXX) --showme,pkg-config $(MPI_PC))
MPI_WHY := not found: no MPI compiler wrapper ($(or $(MPICXX),mpicxx) --showme) and no pkg-config ompi-c or mpich; install Open MPI (libopenmpi-dev openmpi-bin) or set MPICXX=/path/to/mpicxx
$(eval $(call find_dep,NCCL,NCCL,nccl,nccl.h,nccl,NCCL_ROOT NCCL_HOME EBROOTNCCL,$(CUDA_HOME)))
export KIT_DEPS_KEY := $(DEP_KEY)
export $(foreach d,$(DEP_IDS),HAVE_$(d) $(d)_CFLAGS $(d)_LDLIBS $(d)_FROM $(d)_WHY)
endif
