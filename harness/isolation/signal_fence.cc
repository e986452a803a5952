#include "harness/isolation/signal_fence.h"

#include <errno.h>
#include <linux/audit.h>
#include <linux/filter.h>
#include <linux/seccomp.h>
#include <stddef.h>
#include <sys/prctl.h>
#include <sys/syscall.h>

#include <cstdint>
#include <vector>

namespace dmconf {
namespace {

#if defined(__x86_64__)
constexpr uint32_t kArch = AUDIT_ARCH_X86_64;
constexpr bool kKnownArch = true;
constexpr uint32_t kX32Bit = 0x40000000;  // the x32 ABI's numbers: refused, not checked
#elif defined(__aarch64__)
constexpr uint32_t kArch = AUDIT_ARCH_AARCH64;
constexpr bool kKnownArch = true;
constexpr uint32_t kX32Bit = 0;
#else
constexpr uint32_t kArch = 0;
constexpr bool kKnownArch = false;
constexpr uint32_t kX32Bit = 0;
#endif

// A classic BPF program with jumps to named places, resolved at the end.
class Program {
 public:
  enum Target { kAllow, kDeny, kCheckFirst, kCheckSecond, kNone };

  void Load(uint32_t offset) { Emit(BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offset), kNone, kNone); }
  // if (A == k) goto yes, else fall through.
  void JumpIfEqual(uint32_t k, Target yes) {
    Emit(BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, k, 0, 0), yes, kNone);
  }
  void JumpIfNotEqual(uint32_t k, Target no) {
    Emit(BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, k, 0, 0), kNone, no);
  }
  void JumpIfAtLeast(uint32_t k, Target yes) {
    Emit(BPF_JUMP(BPF_JMP | BPF_JGE | BPF_K, k, 0, 0), yes, kNone);
  }
  void Return(uint32_t action) { Emit(BPF_STMT(BPF_RET | BPF_K, action), kNone, kNone); }
  void Mark(Target t) { places_[t] = code_.size(); }

  std::vector<sock_filter> Resolve() {
    for (size_t i = 0; i < code_.size(); ++i) {
      if (fixups_[i].yes != kNone)
        code_[i].jt = static_cast<uint8_t>(places_[fixups_[i].yes] - i - 1);
      if (fixups_[i].no != kNone)
        code_[i].jf = static_cast<uint8_t>(places_[fixups_[i].no] - i - 1);
    }
    return code_;
  }

 private:
  struct Fixup {
    Target yes, no;
  };
  void Emit(sock_filter f, Target yes, Target no) {
    code_.push_back(f);
    fixups_.push_back({yes, no});
  }
  std::vector<sock_filter> code_;
  std::vector<Fixup> fixups_;
  size_t places_[4] = {};
};

constexpr uint32_t kNr = offsetof(seccomp_data, nr);
constexpr uint32_t kArchField = offsetof(seccomp_data, arch);
// The low 32 bits of an argument (a pid_t: the kernel ignores the upper half, so a filter that
// compared all 64 bits could be passed by setting them).
constexpr uint32_t ArgLow(int i) {
  return static_cast<uint32_t>(offsetof(seccomp_data, args) + 8 * i);
}

}  // namespace

bool FenceSignals(pid_t harness, pid_t harness_group, pid_t keeper) {
  if (!kKnownArch) return false;
  const auto u = [](long v) { return static_cast<uint32_t>(v); };
  Program p;
  p.Load(kArchField);
  p.JumpIfNotEqual(kArch, Program::kAllow);
  p.Load(kNr);
  if (kX32Bit != 0) p.JumpIfAtLeast(kX32Bit, Program::kDeny);
  p.JumpIfEqual(SYS_kill, Program::kCheckFirst);
  p.JumpIfEqual(SYS_rt_sigqueueinfo, Program::kCheckFirst);
  p.JumpIfEqual(SYS_tgkill, Program::kCheckFirst);
  p.JumpIfEqual(SYS_rt_tgsigqueueinfo, Program::kCheckFirst);
  p.JumpIfEqual(SYS_tkill, Program::kDeny);
#ifdef SYS_pidfd_send_signal
  p.JumpIfEqual(SYS_pidfd_send_signal, Program::kDeny);
#endif
  p.JumpIfEqual(SYS_ptrace, Program::kCheckSecond);
  p.Mark(Program::kAllow);
  p.Return(SECCOMP_RET_ALLOW);
  // The first argument: a pid, a thread group, or a process group when negative.
  p.Mark(Program::kCheckFirst);
  p.Load(ArgLow(0));
  for (long target : {long{harness}, long{keeper}, -long{harness_group}, -long{keeper}, 0L, -1L}) {
    p.JumpIfEqual(u(target), Program::kDeny);
  }
  p.Return(SECCOMP_RET_ALLOW);
  // ptrace(request, pid, ...)
  p.Mark(Program::kCheckSecond);
  p.Load(ArgLow(1));
  p.JumpIfEqual(u(harness), Program::kDeny);
  p.JumpIfEqual(u(keeper), Program::kDeny);
  p.Return(SECCOMP_RET_ALLOW);
  p.Mark(Program::kDeny);
  p.Return(SECCOMP_RET_ERRNO | (EPERM & SECCOMP_RET_DATA));

  std::vector<sock_filter> code = p.Resolve();
  sock_fprog prog{static_cast<unsigned short>(code.size()), code.data()};
  if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0) return false;
  return prctl(PR_SET_SECCOMP, SECCOMP_MODE_FILTER, &prog) == 0;
}

}  // namespace dmconf
