// Matrix Market text parsed in memory (mtx_text.hpp).
#include "mtx_text.hpp"

#include "core/kit_error.hpp"

namespace kit::testing {

ReadOptions read_budget(count_t budget) {
    ReadOptions opt;
    opt.memory_budget = budget;
    return opt;
}

CooMatrix parse_text(const std::string& text, MatrixMarketInfo* info, const ReadOptions& opt) {
    return read_matrix_market_bytes(text.data(), text.size(), "test.mtx", info, opt);
}

std::string read_error_of(const std::string& text, const ReadOptions& opt) {
    try {
        parse_text(text, nullptr, opt);
    } catch (const InputError& e) {
        return e.what();
    }
    return "";
}

}  // namespace kit::testing
