// Lab 03 variants: "dia" on the CPU; "dia-naive" and "dia-shared" on CUDA (register_cuda.cu).
#include <sstream>

#include "bytes_model.hpp"
#include "dia_kernels.hpp"
#include "variants.hpp"

namespace kit {

void register_lab_03_dia_cuda(Registry& r);

// Shared with register_cuda.cu; a namespace of their own keeps them apart from other labs' helpers.
namespace lab03 {

count_t dia_bytes_of(const Dia<float>& m, count_t value_bytes) {
    return dia_bytes(m.rows, m.cols, m.diagonals(), m.pitch, value_bytes);
}
count_t dia_bytes_of(const Dia<double>& m, count_t value_bytes) {
    return dia_bytes(m.rows, m.cols, m.diagonals(), m.pitch, value_bytes);
}

// Adds the layout figures to a run's result, so `spmv-kit run` shows what the format cost.
RunFunction with_dia_note(RunFunction run) {
    return [run](const CooMatrix& A, const std::vector<double>& x, const std::vector<double>& y,
                 const RunOptions& opt) {
        RunResult out = run(A, x, y, opt);  // a refused conversion throws here, before the note
        const Dia<double> d = Dia<double>::from_coo(A);
        std::ostringstream note;
        note << "DIA: " << d.diagonals() << " diagonals, pitch " << d.pitch << ", fill " << d.fill()
             << " (stored slots / nonzeros)";
        out.note = note.str();
        return out;
    };
}

}  // namespace lab03

void register_lab_03_dia(Registry& r) {
    r.add({"dia", Backend::cpu, "03-dia", 1, "for each diagonal, a loop over the rows it crosses",
           lab03::with_dia_note(cpu_variant<Dia>([](auto A, auto x, auto y) { cpu::dia_spmv(A, x, y); },
                                          [](const auto& m, count_t vb) { return lab03::dia_bytes_of(m, vb); }))});
#if KIT_HAVE_CUDA
    register_lab_03_dia_cuda(r);
#endif
}

}  // namespace kit
