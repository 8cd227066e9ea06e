"""A small seccomp filter for the sandboxed child, prebuilt at import and loaded with one prctl.

It is the last step of the child's set-up, so everything the checker itself needs to open is open by
then, and from then on it refuses what an answer to a PPO drill never needs and what would let it
reach outside its process tree:

- sending signals (kill, tkill, tgkill, sigqueue, pidfd_send_signal), and asking the kernel to send
  them on the answer's behalf: fcntl F_SETOWN / F_SETOWN_EX / F_SETSIG and ioctl FIOSETOWN /
  SIOCSPGRP (with O_ASYNC, the kernel would signal any process of the same user, the checker
  included);
- opening anything by path: open, openat, openat2, creat, open_by_handle_at answer EMFILE (as though
  no descriptor were free, which RLIMIT_NOFILE already makes true until an answer closes one of its
  four), so an answer cannot read a file, list a directory or import a module the checker did not
  preload, even after `os.close(0)`;
- creating sockets (socket; socketpair, which reaches nothing, stays allowed): no path-based unix
  socket (the D-Bus session bus, ssh-agent, docker.sock), no vsock, whatever descriptors are free;
- starting programs (execve, execveat);
- new namespaces: unshare, setns, and clone with any CLONE_NEW* flag; clone3 answers ENOSYS so that
  glibc falls back to clone, whose flags a filter can read;
- acting on another process: prlimit64, setpriority, sched_setscheduler / setparam / setattr /
  setaffinity, ioprio_set, migrate_pages, move_pages and get_robust_list are allowed only where they name
  the caller itself (pid 0 or its own pid; setpriority and ioprio_set only for one process, never a
  process group or a whole user), and kcmp, pidfd_open, process_madvise and process_mrelease are refused:
  as an ordinary user these would otherwise set limits on, renice or reschedule every process of the
  user; `prctl(PR_SET_PDEATHSIG)` is refused too, so the answer always dies with its keeper;
- ptrace, process_vm_*, pidfd_getfd, mounts, keyrings, bpf, perf events, userfaultfd, io_uring,
  module and kexec loading.

Everything else is allowed: this narrows the kernel surface, it is not a whitelist. x86_64 only
(other architectures get a note and no filter); 32-bit and x32 system calls, which could bypass a
table of 64-bit numbers, are refused outright.
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
_JSET_K = 0x45
_RET_K = 0x06

#: offsets into struct seccomp_data: nr, arch, then the low 32 bits of args[i] (little endian)
_NR, _ARCH = 0, 4


def _arg_low(i: int) -> int:
    return 16 + 8 * i


#: x86_64 numbers of the calls refused whatever their arguments (EPERM).
DENIED_X86_64 = {
    "kill": 62, "tkill": 200, "tgkill": 234, "rt_sigqueueinfo": 129, "rt_tgsigqueueinfo": 297,
    "pidfd_send_signal": 424, "pidfd_getfd": 438, "ptrace": 101, "process_vm_readv": 310,
    "process_vm_writev": 311, "unshare": 272, "setns": 308, "mount": 165, "umount2": 166,
    "pivot_root": 155, "chroot": 161, "open_tree": 428, "move_mount": 429, "fsopen": 430,
    "fsconfig": 431, "fsmount": 432, "fspick": 433, "mount_setattr": 442, "keyctl": 250,
    "add_key": 248, "request_key": 249, "bpf": 321, "perf_event_open": 298, "userfaultfd": 323,
    "kexec_load": 246, "kexec_file_load": 320, "init_module": 175, "finit_module": 313,
    "delete_module": 176, "io_uring_setup": 425, "io_uring_enter": 426, "io_uring_register": 427,
    "socket": 41, "execve": 59, "execveat": 322,
}
#: calls that open a path; refused with EMFILE.
OPENING_X86_64 = {"open": 2, "openat": 257, "openat2": 437, "creat": 85, "open_by_handle_at": 304}
_CLONE, _CLONE3, _FCNTL, _IOCTL, _PRCTL = 56, 435, 72, 16, 157
#: calls whose first argument is a pid: allowed only for the caller itself (0 or its own pid)
SELF_ONLY_X86_64 = {"prlimit64": 302, "sched_setparam": 142, "sched_setscheduler": 144,
                    "sched_setaffinity": 203, "sched_setattr": 314, "migrate_pages": 256, "move_pages": 279,
                    "get_robust_list": 274}
#: calls whose first argument says what the second names (a process, a group, a user): allowed only for
#: one process, the caller (setpriority: PRIO_PROCESS = 0; ioprio_set: IOPRIO_WHO_PROCESS = 1)
WHICH_WHO_X86_64 = {"setpriority": (141, 0), "ioprio_set": (251, 1)}
#: refused whatever their arguments, besides DENIED_X86_64: comparing, opening or acting on other processes
#: by pidfd
DENIED_PROCESS_X86_64 = {"kcmp": 312, "pidfd_open": 434, "process_madvise": 440, "process_mrelease": 448}
PR_SET_PDEATHSIG = 1

#: clone flags that make a new namespace (CLONE_NEWNS, NEWCGROUP, NEWUTS, NEWIPC, NEWUSER, NEWPID, NEWNET)
CLONE_NAMESPACE_FLAGS = 0x00020000 | 0x02000000 | 0x04000000 | 0x08000000 | 0x10000000 | 0x20000000 | 0x40000000
#: fcntl commands that choose which process the kernel signals for a descriptor, or with which signal
SIGNAL_OWNER_FCNTL = {"F_SETOWN": 8, "F_SETSIG": 10, "F_SETOWN_EX": 15}
#: ioctl requests that do the same as F_SETOWN
SIGNAL_OWNER_IOCTL = {"FIOSETOWN": 0x8901, "SIOCSPGRP": 0x8902}


def _insn(code: int, jt: int, jf: int, k: int) -> bytes:
    return struct.pack("HBBI", code, jt, jf, k)


def _assemble(prog: list) -> bytes:
    """Resolve labels: an item is ("label", name) or (code, jt, jf, k) where jt/jf may be a label
    name (jump there) or 0 (fall through)."""
    where: dict[str, int] = {}
    insns = []
    for item in prog:
        if item[0] == "label":
            where[item[1]] = len(insns)
        else:
            insns.append(item)
    out = []
    for i, (code, jt, jf, k) in enumerate(insns):
        jt, jf = ((where[j] - i - 1) if isinstance(j, str) else j for j in (jt, jf))
        assert 0 <= jt < 256 and 0 <= jf < 256, "jump out of range"
        out.append(_insn(code, jt, jf, k))
    return b"".join(out)


def _build(self_pid: int) -> bytes | None:
    """The filter for a process whose pid (in its own pid namespace) is `self_pid`."""
    if platform.machine() != "x86_64":
        return None
    prog: list = [
        (_LD_W_ABS, 0, 0, _ARCH),
        (_JEQ_K, 0, "deny", _AUDIT_ARCH_X86_64),     # 32-bit entry points: refuse everything
        (_LD_W_ABS, 0, 0, _NR),
        (_JGE_K, "deny", 0, _X32_SYSCALL_BIT),       # x32 ABI
        (_JEQ_K, "enosys", 0, _CLONE3),
        (_JEQ_K, "clone", 0, _CLONE),
        (_JEQ_K, "fcntl", 0, _FCNTL),
        (_JEQ_K, "ioctl", 0, _IOCTL),
        (_JEQ_K, "prctl", 0, _PRCTL),
    ]
    prog += [(_JEQ_K, "emfile", 0, nr) for nr in sorted(OPENING_X86_64.values())]
    prog += [(_JEQ_K, "deny", 0, nr) for nr in sorted({*DENIED_X86_64.values(), *DENIED_PROCESS_X86_64.values()})]
    prog += [(_JEQ_K, "self0", 0, nr) for nr in sorted(SELF_ONLY_X86_64.values())]
    prog += [(_JEQ_K, f"which_{name}", 0, nr) for name, (nr, _) in sorted(WHICH_WHO_X86_64.items())]
    prog += [
        (_RET_K, 0, 0, _RET_ALLOW),
        ("label", "self0"),  # the pid in args[0] (an int: its low 32 bits) is 0 or the caller's
        (_LD_W_ABS, 0, 0, _arg_low(0)),
        (_JEQ_K, "allow", 0, 0),
        (_JEQ_K, "allow", "deny", self_pid),
    ]
    for name, (_, one_process) in sorted(WHICH_WHO_X86_64.items()):
        prog += [
            ("label", f"which_{name}"),
            (_LD_W_ABS, 0, 0, _arg_low(0)),
            (_JEQ_K, 0, "deny", one_process),
            (_LD_W_ABS, 0, 0, _arg_low(1)),
            (_JEQ_K, "allow", 0, 0),
            (_JEQ_K, "allow", "deny", self_pid),
        ]
    prog += [
        ("label", "prctl"),
        (_LD_W_ABS, 0, 0, _arg_low(0)),
        (_JEQ_K, "deny", "allow", PR_SET_PDEATHSIG),
        ("label", "clone"),
        (_LD_W_ABS, 0, 0, _arg_low(0)),
        (_JSET_K, "deny", "allow", CLONE_NAMESPACE_FLAGS),
        ("label", "fcntl"),
        (_LD_W_ABS, 0, 0, _arg_low(1)),
        *[(_JEQ_K, "deny", 0, cmd) for cmd in SIGNAL_OWNER_FCNTL.values()],
        (_RET_K, 0, 0, _RET_ALLOW),
        ("label", "ioctl"),
        (_LD_W_ABS, 0, 0, _arg_low(1)),
        *[(_JEQ_K, "deny", 0, req) for req in SIGNAL_OWNER_IOCTL.values()],
        ("label", "allow"),
        (_RET_K, 0, 0, _RET_ALLOW),
        ("label", "deny"),
        (_RET_K, 0, 0, _RET_ERRNO | errno.EPERM),
        ("label", "emfile"),
        (_RET_K, 0, 0, _RET_ERRNO | errno.EMFILE),
        ("label", "enosys"),
        (_RET_K, 0, 0, _RET_ERRNO | errno.ENOSYS),
    ]
    return _assemble(prog)


_FILTERS: dict[int, bytes | None] = {}


def filter_for(self_pid: int) -> bytes | None:
    """The assembled filter for a process with this pid (built once per pid)."""
    if self_pid not in _FILTERS:
        _FILTERS[self_pid] = _build(self_pid)
    return _FILTERS[self_pid]


filter_for(1)  # the usual case (the first process of a pid namespace), built at import


class _SockFprog(ctypes.Structure):
    _fields_ = [("len", ctypes.c_ushort), ("filter", ctypes.c_void_p)]


def install(libc, self_pid: int) -> str | None:
    """Load the filter into the calling process, whose pid is `self_pid` (needs no-new-privs set); a note
    when it cannot."""
    _FILTER = filter_for(self_pid)
    if _FILTER is None:
        return (f"no seccomp filter on {platform.machine()}: the answer may signal your processes, and "
                "after closing a descriptor open files and sockets")
    buf = ctypes.create_string_buffer(_FILTER, len(_FILTER))
    prog = _SockFprog(len(_FILTER) // 8, ctypes.addressof(buf))
    if libc.prctl(ctypes.c_int(_PR_SET_SECCOMP), ctypes.c_ulong(_SECCOMP_MODE_FILTER),
                  ctypes.c_void_p(ctypes.addressof(prog)), ctypes.c_ulong(0), ctypes.c_ulong(0)) != 0:
        err = ctypes.get_errno()
        return (f"seccomp filter not loaded ({errno.errorcode.get(err, err)}): the answer may signal your "
                "processes, and after closing a descriptor open files and sockets")
    return None
