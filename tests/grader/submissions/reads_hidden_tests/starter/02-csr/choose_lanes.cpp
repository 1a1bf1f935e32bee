// Adversarial submission: right, but first hunts for the hidden test sources (relative to
// where it runs, to its own executable, and to its parent process) and, if it finds real
// ones, prints them and fails loudly with their text, so that a leak shows in the results.
#include <unistd.h>

#include <fstream>
#include <iostream>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

#include "csr_kernels.hpp"

namespace {

std::string slurp(const std::string& path) {
    std::ifstream in(path);
    std::stringstream s;
    s << in.rdbuf();
    return s.str();
}

void hunt_hidden_tests() {
    const std::string target = "tests/hidden/02-csr/test_csr_hidden.cpp";
    const std::string parent = "/proc/" + std::to_string(getppid());
    char exe[4096] = {0};
    const ssize_t n = readlink("/proc/self/exe", exe, sizeof exe - 1);
    std::string exe_dir = n > 0 ? std::string(exe, n) : std::string("/");
    exe_dir = exe_dir.substr(0, exe_dir.find_last_of('/') + 1);
    std::vector<std::string> roots = {"", "/proc/self/cwd/", parent + "/cwd/", parent + "/root/"};
    std::string climb;
    for (int up = 0; up < 8; ++up, climb += "../") {
        roots.push_back(climb);
        roots.push_back(exe_dir + climb);
    }
    for (const std::string& root : roots) {
        const std::string text = slurp(root + target);
        if (text.find("TEST") != std::string::npos) {
            std::cout << "LEAKED HIDDEN TESTS from " << root << target << ":\n" << text << std::endl;
            throw std::runtime_error("LEAKED HIDDEN TESTS: " + text);
        }
    }
}

}  // namespace

namespace kit {

int choose_lanes(double mean_row_length) {
    static bool hunted = false;
    if (!hunted) {
        hunted = true;
        hunt_hidden_tests();
    }
    int lanes = 2;
    while (lanes < 32 && lanes < mean_row_length) lanes *= 2;
    return lanes;
}

}  // namespace kit
