"""A small seccomp filter for the sandboxed child, prebuilt at import and loaded with one prctl.

It refuses (EPERM) the system calls an answer to a PPO drill never needs and that would let it
reach outside its process tree: sending signals (kill, tkill, tgkill, sigqueue, pidfd_send_signal;
as an ordinary user nothing else stops an answer signalling the app), ptrace and process_vm_*,
new namespaces and mounts, keyrings, bpf, perf events, userfaultfd, io_uring, module and kexec
loading. clone3 answers ENOSYS so that glibc falls back to clone for threads. Everything else is
allowed: this narrows the kernel surface, it is not a whitelist.

x86_64 only (other architectures get a note and no filter); 32-bit and x32 system calls, which could
bypass a table of 64-bit numbers, are refused outright.
"""
from __future__ import annotations

import ctypes
import errno
import platform
import struct

_AUDIT_ARCH_X86_64 = 0xC000003E
_X32_SYSCALL_BIT = 0x40000000
_PR_SET_SECCOMP = 22
_SECCOMP_MODE_FILTER = 2
_RET_ALLOW = 0x7FFF0000
_RET_ERRNO = 0x00050000

_LD_W_ABS = 0x20
_JEQ_K = 0x15
_JGE_K = 0x35
_RET_K = 0x06

#: x86_64 numbers of the refused calls.
DENIED_X86_64 = {
    "kill": 62, "tkill": 200, "tgkill": 234, "rt_sigqueueinfo": 129, "rt_tgsigqueueinfo": 297,
    "pidfd_send_signal": 424, "ptrace": 101, "process_vm_readv": 310, "process_vm_writev": 311,
    "unshare": 272, "setns": 308, "mount": 165, "umount2": 166, "pivot_root": 155, "chroot": 161,
    "open_tree": 428, "move_mount": 429, "fsopen": 430, "fsconfig": 431, "fsmount": 432, "fspick": 433,
    "mount_setattr": 442, "keyctl": 250, "add_key": 248, "request_key": 249, "bpf": 321,
    "perf_event_open": 298, "userfaultfd": 323, "kexec_load": 246, "kexec_file_load": 320,
    "init_module": 175, "finit_module": 313, "delete_module": 176, "io_uring_setup": 425,
    "io_uring_enter": 426, "io_uring_register": 427,
}
_CLONE3 = 435


def _insn(code: int, jt: int, jf: int, k: int) -> bytes:
    return struct.pack("HBBI", code, jt, jf, k)


def _build() -> bytes | None:
    if platform.machine() != "x86_64":
        return None
    deny_eperm = _RET_ERRNO | errno.EPERM
    numbers = sorted(DENIED_X86_64.values())
    prog = [
        (_LD_W_ABS, 0, 0, 4),                       # arch
        (_JEQ_K, 1, 0, _AUDIT_ARCH_X86_64),
        (_RET_K, 0, 0, deny_eperm),                 # 32-bit entry points: refuse everything
        (_LD_W_ABS, 0, 0, 0),                       # syscall number
        (_JGE_K, 0, 1, _X32_SYSCALL_BIT),
        (_RET_K, 0, 0, deny_eperm),                 # x32 ABI
        (_JEQ_K, 0, 1, _CLONE3),
        (_RET_K, 0, 0, _RET_ERRNO | errno.ENOSYS),
    ]
    deny_at = len(prog) + len(numbers) + 1        # index of the final "deny" return
    for i, nr in enumerate(numbers):
        here = len(prog)
        prog.append((_JEQ_K, deny_at - here - 1, 0, nr))
        assert here == 8 + i
    prog.append((_RET_K, 0, 0, _RET_ALLOW))
    prog.append((_RET_K, 0, 0, deny_eperm))
    return b"".join(_insn(*p) for p in prog)


_FILTER = _build()


class _SockFprog(ctypes.Structure):
    _fields_ = [("len", ctypes.c_ushort), ("filter", ctypes.c_void_p)]


def install(libc) -> str | None:
    """Load the filter into the calling process (needs no-new-privs set); a note when it cannot."""
    if _FILTER is None:
        return f"no seccomp filter on {platform.machine()}: the answer may signal your processes"
    buf = ctypes.create_string_buffer(_FILTER, len(_FILTER))
    prog = _SockFprog(len(_FILTER) // 8, ctypes.addressof(buf))
    if libc.prctl(ctypes.c_int(_PR_SET_SECCOMP), ctypes.c_ulong(_SECCOMP_MODE_FILTER),
                  ctypes.c_void_p(ctypes.addressof(prog)), ctypes.c_ulong(0), ctypes.c_ulong(0)) != 0:
        err = ctypes.get_errno()
        return f"seccomp filter not loaded ({errno.errorcode.get(err, err)}): the answer may signal your processes"
    return None
