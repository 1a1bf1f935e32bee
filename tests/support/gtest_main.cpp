// GoogleTest main for every kit test binary. Beyond the default output it prints, at the
// end, each skipped test with its reason, and a one-line summary that `make test` sums up:
//   KIT-SUMMARY <binary> passed=N failed=N skipped=N
// It also takes the grader's --kit-record=FILE and --kit-replay=FILE (see observe.hpp). Started
// by mpirun, ranks other than 0 run silently (quiet_other_ranks).
#include <gtest/gtest.h>

#include "core/kit_error.hpp"
#include "observe.hpp"

#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

namespace {

class SkipReporter : public ::testing::EmptyTestEventListener {
public:
    void OnTestStart(const ::testing::TestInfo& info) override {
        kit::testing::start_observed_test(std::string(info.test_suite_name()) + "." + info.name());
    }
    void OnTestEnd(const ::testing::TestInfo& info) override {
        const auto* r = info.result();
        const std::string name = std::string(info.test_suite_name()) + "." + info.name();
        if (r->Skipped()) {
            std::string why;
            for (int i = 0; i < r->total_part_count(); ++i)
                if (r->GetTestPartResult(i).skipped()) why = r->GetTestPartResult(i).message();
            skipped_.push_back(name + ": " + (why.empty() ? "no reason given" : why));
        } else if (r->Failed()) {
            ++failed_;
        } else {
            ++passed_;
        }
    }
    void OnTestProgramEnd(const ::testing::UnitTest&) override {
        if (!skipped_.empty()) {
            std::printf("\nSkipped tests and why:\n");
            for (const auto& s : skipped_) std::printf("  SKIPPED %s\n", s.c_str());
        }
        std::printf("KIT-SUMMARY %s passed=%d failed=%d skipped=%zu\n", binary_.c_str(), passed_, failed_,
                    skipped_.size());
        std::fflush(stdout);
    }
    std::string binary_;

private:
    int passed_ = 0, failed_ = 0;
    std::vector<std::string> skipped_;
};

/// The rank of this process in a parallel launch (mpirun, srun), read from the launcher's
/// environment before MPI starts; 0 outside one.
int launcher_rank() {
    for (const char* var : {"OMPI_COMM_WORLD_RANK", "PMIX_RANK", "PMI_RANK", "SLURM_PROCID"})
        if (const char* v = std::getenv(var)) return std::atoi(v);
    return 0;
}

/// In a parallel launch only rank 0 speaks for the program: it records the calls into student
/// code (--kit-record), writes the results file (--gtest_output) and prints. The other ranks
/// run the same tests (their collective calls need them) silently, in plain mode.
void quiet_other_ranks(int& argc, char** argv) {
    if (launcher_rank() == 0) return;
    int kept = 1;
    for (int i = 1; i < argc; ++i) {
        const std::string a = argv[i];
        if (a.rfind("--kit-record=", 0) != 0 && a.rfind("--gtest_output=", 0) != 0) argv[kept++] = argv[i];
    }
    argc = kept;
    unsetenv("TEST_PREMATURE_EXIT_FILE");
    unsetenv("GTEST_OUTPUT");
    if (!std::freopen("/dev/null", "w", stdout)) std::perror("/dev/null");
}

}  // namespace

int main(int argc, char** argv) {
    quiet_other_ranks(argc, argv);
    ::testing::InitGoogleTest(&argc, argv);
    try {
        kit::testing::init_observe(argc, argv);
    } catch (const kit::Error& e) {
        std::fprintf(stderr, "%s\n", e.what());
        return 2;
    }
    auto* reporter = new SkipReporter;  // owned by GoogleTest's listener list
    const std::string path = argv[0];
    reporter->binary_ = path.substr(path.find_last_of('/') + 1);
    ::testing::UnitTest::GetInstance()->listeners().Append(reporter);
    return RUN_ALL_TESTS();
}
