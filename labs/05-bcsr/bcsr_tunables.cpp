#include "bcsr_tunables.hpp"

#include <cstdio>

#include "core/kit_error.hpp"

namespace kit::bcsr {

std::vector<Tunable> block_tunables() {
    return {{kBlockRows, 1, kMaxBlock, "rows per block; absent: the autotuner picks the shape"},
            {kBlockCols, 1, kMaxBlock, "columns per block; absent: the autotuner picks the shape"}};
}

void set_block(RunOptions& opt, int r, int c) {
    opt.tunables[kBlockRows] = r;
    opt.tunables[kBlockCols] = c;
}

TunableOption block_option() {
    return {"--block", "RxC|auto",
            "block size of the BCSR variants (default auto: the lab 05 autotuner picks it and prints its table; "
            "profile $KIT_BCSR_PROFILE or labs/05-bcsr/profile_default.txt)",
            [](const std::string& value) {
                std::map<std::string, int> out;
                if (value.empty() || value == "auto") return out;
                int r = 0, c = 0;
                char x = 0, extra = 0;
                if (std::sscanf(value.c_str(), "%d%c%d%c", &r, &x, &c, &extra) != 3 || x != 'x')
                    throw Error("--block must be RxC (e.g. 2x2) or auto; got '" + value + "'");
                out[kBlockRows] = r;
                out[kBlockCols] = c;
                return out;
            }};
}

}  // namespace kit::bcsr
