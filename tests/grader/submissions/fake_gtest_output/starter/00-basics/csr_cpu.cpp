// Adversarial submission: computes nothing, but prints what a passing run prints, leaves
// passing-looking result files where GoogleTest writes them by default and where this
// program was told to write them, then leaves with status 0.
#include <unistd.h>

#include <cstdio>
#include <fstream>
#include <string>

#include "basics_kernels.hpp"

namespace {

const char* const fake_json =
    "{\"tests\": 3, \"failures\": 0, \"disabled\": 0, \"errors\": 0, \"name\": \"AllTests\", \"testsuites\": ["
    "{\"name\": \"Step1_CsrCpu\", \"tests\": 3, \"failures\": 0, \"testsuite\": ["
    "{\"name\": \"Example4x4\", \"status\": \"RUN\", \"result\": \"COMPLETED\"},"
    "{\"name\": \"Rdb450\", \"status\": \"RUN\", \"result\": \"COMPLETED\"},"
    "{\"name\": \"HostileGallery\", \"status\": \"RUN\", \"result\": \"COMPLETED\"}]}]}";

// The --gtest_output path this program was started with, read from its own command line.
std::string own_output_path() {
    std::ifstream in("/proc/self/cmdline", std::ios::binary);
    std::string arg;
    while (std::getline(in, arg, '\0'))
        if (arg.rfind("--gtest_output=json:", 0) == 0) return arg.substr(20);
    return "";
}

}  // namespace

namespace kit::cpu {

template <class T>
void csr_spmv(CsrView<T>, const T*, T*) {
    std::printf("[       OK ] Step1_CsrCpu.Example4x4 (0 ms)\n[       OK ] Step1_CsrCpu.Rdb450 (0 ms)\n");
    std::printf("[==========] 6 tests from 2 test suites ran.\n[  PASSED  ] 6 tests.\n");
    std::printf("KIT-SUMMARY test_00-basics passed=6 failed=0 skipped=0\n");
    std::fflush(stdout);
    for (const std::string& path : {std::string("test_detail.json"), own_output_path()})
        if (!path.empty()) std::ofstream(path) << fake_json;
    _exit(0);
}

template void csr_spmv<float>(CsrView<float>, const float*, float*);
template void csr_spmv<double>(CsrView<double>, const double*, double*);

}  // namespace kit::cpu
