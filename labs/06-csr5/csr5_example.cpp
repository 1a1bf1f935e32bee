#include "csr5_example.hpp"

#include <vector>

namespace kit {

CooMatrix csr5_example8x8() {
    const std::vector<std::vector<index_t>> columns = {
        {0, 3, 6}, {0, 1, 2, 4, 7},          {2, 5},      {1, 3, 4, 6}, {0, 2, 3, 4, 5, 7},
        {1, 6},    {0, 1, 2, 3, 4, 5, 6, 7}, {2, 3, 5, 7}};
    CooMatrix A;
    A.rows = A.cols = 8;
    double value = 1;
    for (index_t r = 0; r < 8; ++r)
        for (index_t c : columns[r]) A.add(r, c, value++);
    return A;
}

}  // namespace kit
