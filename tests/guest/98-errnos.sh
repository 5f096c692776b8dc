# SPDX-License-Identifier: GPL-2.0
#
# The errno table of Documentation/errors.rst, row by row: each check's
# description starts with the row's id (scripts/errno-check verifies that
# the table and this file name the same rows).
. ./lib.sh

pp_load
ncpus=$(grep -c ^processor /proc/cpuinfo)

pp-ctl create keep sw=3 detached >/dev/null
keep=$(pp_stat keep id)
rm -f /tmp/hold
pp-ctl create mine sw=3 hold >/tmp/hold &
holder=$!
pp_wait_grep '^hold: OK' /tmp/hold
mine=$(pp_stat mine id)

# The control device.
row E01 EACCES setpriv_nobody pp-ctl list
row E02 EPERM pp-ctl drop-caps create u sw=1 detached
row E03 EPERM pp-ctl drop-caps destroy keep
row E04 EPERM pp-ctl drop-caps detach keep
row E05 EPERM pp-ctl drop-caps attach keep
row E06 EPERM pp-ctl drop-caps pause keep
row E07 EPERM pp-ctl drop-caps resume keep
row E08 EINVAL pp-ctl create b sw=1 detached size=32
row E09 E2BIG pp-ctl create b sw=1 detached size=128 tail
row E10 E2BIG pp-ctl create b sw=1 detached size=8192
row E11 EINVAL pp-ctl create b sw=1 flags=0x10
row E12 EINVAL pp-ctl create b sw=1 detached reserved
row E13 EINVAL pp-ctl create abcdefghijklmnopqrstuvwxyz0123456789 sw=1 detached
row E14 EINVAL pp-ctl create Bad-Name sw=1 detached
row E15 EINVAL pp-ctl create period sw=1 detached
row E16 EINVAL pp-ctl create rbeef sw=1 detached
row E17 EEXIST pp-ctl create keep sw=1 detached
row E18 EINVAL pp-ctl create b sw=1 detached buffer=12288
row E19 E2BIG pp-ctl create b sw=1 detached buffer=134217728
row E20 EINVAL pp-ctl create b sw=1 detached attr-size=32
row E21 E2BIG pp-ctl create b sw=1 detached attr-size=256 tail-attr
row E22 EFAULT pp-ctl create b sw=1 detached bad-attr
row E23 EFAULT pp-ctl create b sw=1 detached bad-struct
row E24 EOPNOTSUPP pp-ctl create b sw=1 detached sample=0x40000
row E25 EINVAL pp-ctl create b "raw=$(cat "$PP_SYS/type"):1" detached
row E26 ENOENT pp-ctl create b raw=12345:0 detached
# (Length 12: neither x86, which takes powers of two, nor arm64, which
# takes 1 to 8 bytes, watches 12.)
row E27 EINVAL pp-ctl create b bp=0x1000:12:w detached
row E28 ENOENT pp-ctl destroy 99999
row E29 EBUSY pp-ctl destroy "$mine"
row E30 ENOENT pp-ctl detach 99999
row E31 EALREADY pp-ctl detach "$keep"
row E32 EBUSY pp-ctl detach "$mine"
row E33 ENOENT pp-ctl attach 99999
row E34 EALREADY sh -c "pp-ctl attach $keep attach $keep detach $keep | sed -n 2p"
row E35 EBUSY pp-ctl attach "$mine"
row E36 ENOENT pp-ctl pause 99999
row E37 ENOENT pp-ctl resume 99999
row E38 ENOENT pp-ctl info 99999
row E39 ENOENT pp-ctl info nosuchname
row E40 EINVAL pp-ctl info-raw "$keep" size=40
row E41 EINVAL pp-ctl info-raw "$keep" reserved
row E42 EFAULT pp-ctl info-raw "$keep" bad-stats
row E43 EINVAL pp-ctl list-raw size=16
row E44 EINVAL pp-ctl list-raw no-ids
row E45 ENOTTY pp-ctl ioctl 0xb920

# Readers (perf_event_open of the persistent PMU).
pp-ctl create gone sw=3 detached >/dev/null
gone=$(pp_stat gone id)
pp-ctl destroy gone >/dev/null
row E46 ENOENT pp-open --config 99999 --cpu 0
row E47 ENOENT pp-open --config "$gone" --cpu 0
row E48 EINVAL pp-open --config "$keep" --pid 0 --cpu 0
row E49 EINVAL pp-open --config "$keep" --cpu -1
mkdir -p /sys/fs/cgroup
mount -t cgroup2 none /sys/fs/cgroup 2>/dev/null
row E50 EINVAL pp-open --config "$keep" --cgroup /sys/fs/cgroup
echo 0 >/sys/devices/system/cpu/cpu1/online
row E51 ENODEV pp-open --config "$keep" --cpu 1
pp-ctl create late sw=3 detached >/dev/null
late=$(pp_stat late id)
row E62 ENODEV pp-mmap "$late" 1
echo 1 >/sys/devices/system/cpu/cpu1/online
row E52 EINVAL pp-open --config "$keep" --config2 1
row E53 EOPNOTSUPP pp-open --config "$keep" --branch
row E63 EINVAL pp-open --config "$keep" --exclude-kernel
row E64 EINVAL pp-ctl create b sw=1 detached attr-reserved
row E65 EINVAL pp-ctl create b sw=1 detached period=0x8000000000000000
row E66 EOPNOTSUPP pp-ctl create b sw=1 detached use-clockid
if [ -d /sys/kernel/tracing/events/irq_vectors ]; then
	row E67 EPERM pp-ctl create b tp=irq_vectors:irq_work_exit detached
else
	ok "E67 # SKIP no irq_vectors tracepoints (x86's)"
fi
# A PMU whose attr points into the creator's memory: kprobe where the
# kernel has it (not the lab's debug kernel), else uprobe.
probe=uprobe=/bin/busybox:0x1000
[ -e /sys/bus/event_source/devices/kprobe ] && probe=kprobe=do_sys_openat2
row E88 EOPNOTSUPP pp-ctl create b "$probe" detached
# arm64 steps over a breakpoint's access only for perf's own handler.
if [ "$(uname -m)" = aarch64 ]; then
	row E144 EOPNOTSUPP pp-ctl create b bp=0xffff800008000000:8:w detached
else
	ok "E144 # SKIP breakpoint sources record on x86 (60-sources)"
fi
row E71 EINVAL pp-ctl create b sw=1 detached comm-no-id
# Call chains: sample_max_stack above max_stack (127 by default) refused,
# the largest taken.
row E145 EOVERFLOW pp-ctl create b sw=0 detached sample=0x20 max-stack=128
check_match "E145: max_stack itself is taken" "^create b: OK" \
	"$(pp-ctl create b sw=0 detached sample=0x20 max-stack=127 destroy b)"
# DWARF unwinding's user registers and stack (0x3000: REGS_USER and
# STACK_USER).  The mask of a register this architecture lacks: x86's DS
# (bit 12); arm64 has 33, bit 40 is none.
bad_reg=0x1000
[ "$(uname -m)" = aarch64 ] && bad_reg=0x10000000000
row E151 EINVAL pp-ctl create b sw=0 detached sample=0x3000 regs-user=$bad_reg stack-user=8
row E152 EINVAL pp-ctl create b sw=0 detached sample=0x3000 regs-user=1 stack-user=12
check_match "E152: a stack of 8 bytes is taken" "^create b: OK" \
	"$(pp-ctl create b sw=0 detached sample=0x3000 regs-user=1 stack-user=8 destroy b)"
# MAPS, the profiles' mappings table: a profile keeps it filled.
pp-ctl create mp sw=0 detached sample=0x20 >/dev/null
pp-prof 200 >/dev/null
row E146 EPERM pp-ctl drop-caps maps
row E147 EINVAL pp-ctl maps flags=2
check_match "MAPS of the previous boot, with none found: empty" \
	"^maps: OK len=0 needed=0 processes=0" "$(pp-ctl maps flags=1)"
row E148 ENOSPC pp-ctl maps len=16
row E149 EFAULT pp-ctl maps buf=bad
row E150 EINVAL pp-ctl maps size=8
check_match "MAPS: the table's records, after the refusals" \
	"^maps: OK .* comm=[1-9][0-9]* mmap2=[1-9]" "$(pp-ctl maps)"
pp-ctl destroy mp >/dev/null
row E72 EINVAL pp-ctl create b sw=1 detached comm sample=0x10000
echo 2 >/proc/sys/kernel/perf_event_paranoid
row E54 EACCES setpriv_nobody pp-open --config "$keep" --cpu 0
echo 0 >/proc/sys/kernel/perf_event_paranoid
pp-ctl create rawtp tp=sched:sched_switch buffer=4096 detached >/dev/null
row E68 EPERM pp-open --config "$(pp_stat rawtp id)" --cpu 0 --as nobody
pp-ctl destroy rawtp >/dev/null
echo 3 >/proc/sys/kernel/perf_event_paranoid

# Mappings of the buffers.
pp-mmap "$keep" 0 try-write >/tmp/w
row E55 EACCES grep '^shared writable' /tmp/w
row E56 EACCES grep '^private writable' /tmp/w
row E57 EACCES grep '^mprotect writable' /tmp/w
row E58 EINVAL pp-mmap "$keep" 0 size 4096
row E59 EINVAL pp-mmap "$keep" "$ncpus"
row E60 ENOENT pp-mmap "$gone" 0 size 69632

# Triggers.  None of the refusals leaves a trigger behind.
many=$(awk -v k="$keep" 'BEGIN { for (i = 0; i < 65; i++) printf "%s%s", i ? "," : "", k }')
row E73 EINVAL pp-ctl trigger keep "$keep" flags=0x8
row E74 EINVAL pp-ctl trigger keep -
row E75 EINVAL pp-ctl trigger keep "$many"
row E76 ENOENT pp-ctl trigger 99999 "$keep"
row E77 ENOENT pp-ctl trigger keep "$keep,99999"
row E78 EFAULT pp-ctl trigger keep "$keep" bad-ptr
row E79 EINVAL pp-ctl trigger keep "$keep" remove
row E80 EINVAL pp-ctl trigger keep "$keep" size=32
row E81 EPERM pp-ctl drop-caps trigger keep "$keep"
row E82 EINVAL pp-ctl trigger keep - flags=0x3
row E83 ENOENT pp-ctl trigger keep - flags=0x2
row E84 ENOENT pp-ctl watch 99999
check_eq "a refused WATCH leaves the file watching nothing" \
	"$(printf 'watch: ENOENT\nread: EINVAL')" "$(pp-notify 99999 refused)"
row E85 EINVAL pp-notify "$keep" small
row E86 EINVAL pp-notify 0 unwatched
row E87 EAGAIN pp-notify "$keep" empty
# Filters (ops are OP:SIZE:OFFSET:VALUE; 1 is EQ, 10 NOT).  rawsrc records
# its fields, so only the filter itself is wrong in these.
pp-ctl create rawsrc tp=sched:sched_switch buffer=4096 detached >/dev/null
eq=1:4:8:0
row E89 EINVAL pp-ctl trigger rawsrc "$keep" filter-ptr=bad
row E90 E2BIG pp-ctl trigger rawsrc "$keep" op=$eq nr-filter=33
row E91 EINVAL pp-ctl trigger rawsrc "$keep" op=11:4:8:0
row E92 EINVAL pp-ctl trigger rawsrc "$keep" op=1:3:8:0
row E93 EINVAL pp-ctl trigger rawsrc "$keep" op=1:4:65404:0
row E94 EINVAL pp-ctl trigger rawsrc "$keep" op=$eq op=$eq
row E95 EFAULT pp-ctl trigger rawsrc "$keep" nr-filter=1 filter-ptr=bad
row E96 EINVAL pp-ctl trigger rawsrc "$keep" op=$eq text-long
row E97 EINVAL pp-ctl trigger rawsrc "$keep" op=$eq "text=prev_pid == 1$(printf '\t')"
row E98 EINVAL pp-ctl trigger keep "$keep" op=$eq
row E99 EINVAL pp-ctl trigger rawsrc "$keep" reserved
check_eq "refused filters leave no trigger on rawsrc" "" "$(pp_stat rawsrc trigger)"
# prev_comm's first bytes are never 0, and x && x never true: never fires.
check_match "the same filter, well formed, is taken" "OK$" \
	"$(pp-ctl trigger rawsrc "$keep" op=$eq op=$eq op=8:0:0:0 text=x)"
check_eq "sysfs shows its text" "targets=$keep count=1 after=0 fired=0 filter=x" "$(pp_stat rawsrc trigger)"
pp-ctl destroy rawsrc >/dev/null
check_eq "refused triggers leave none behind" "" "$(pp_stat keep trigger)"

# Scopes (91-scopes): a task target is $holder, a live process.
cg=/sys/fs/cgroup
grep -q " $cg cgroup2 " /proc/mounts || mount -t cgroup2 none $cg
mkdir -p $cg/pp-scope
pp_make_zombie
bp=bp=0x1000:8:w
# arm64 refuses breakpoints (E144): its sigtrap rows use page faults.
[ "$(uname -m)" != aarch64 ] || bp=sw=2
row E100 EINVAL pp-ctl create b sw=1 detached scope=3
row E101 EINVAL pp-ctl create b sw=1 detached target=$holder
row E102 EINVAL pp-ctl create b sw=1 detached scope=1 target=0
row E103 ESRCH pp-ctl create b sw=1 detached pid=99999
row E104 EINVAL pp-ctl create b sw=1 detached pid=$holder cgroup-path=bad
row E105 EBADF pp-ctl create b sw=1 detached cgroup-fd=/tmp
row E106 ENOENT pp-ctl create b sw=1 detached cgroup=/pp-no-such
row E107 EINVAL pp-ctl create b sw=1 detached scope=2 target=-1
row E108 EFAULT pp-ctl create b sw=1 detached scope=2 target=-1 cgroup-path=bad
row E109 EINVAL pp-ctl create b sw=1 detached pid=$holder inherit-thread
row E110 EINVAL pp-ctl create b sw=1 detached pid=$holder remove-on-exec enable-on-exec
row E111 EINVAL pp-ctl create b $bp detached pid=$holder sigtrap=1
row E112 EINVAL pp-ctl create b sw=1 detached remove-on-exec
row E113 EPERM pp-ctl drop-cap 5 create b $bp detached pid=$holder remove-on-exec sigtrap=1
row E114 EINVAL pp-ctl create b bp=0xffffffff81000000:8:w detached pid=$holder inherit
row E115 EPERM pp-ctl drop-caps create b sw=1 detached pid=$holder
row E116 EINVAL pp-ctl watch-raw 0x200000000
row E117 ENOTDIR pp-ctl create b sw=1 detached cgroup=/pp-scope/cgroup.procs
row E118 ESRCH pp-ctl create b sw=1 detached pid=$pp_zombie
row E119 EINVAL pp-ctl create b sw=1 detached cgroup-fd=$cg/pp-scope cgroup-path=bad
if [ "$(uname -m)" = x86_64 ]; then
	row E125 EINVAL pp-ctl create b raw=4:0x20003c detached pid=$holder inherit
else
	ok "E125 # SKIP Intel's AnyThread bit is x86's"
fi
pp_end_zombie
rmdir $cg/pp-scope
check_match "the sigtrap refused without CAP_KILL is taken with it" "OK id=" \
	"$(pp-ctl create sigok $bp detached pid=$holder remove-on-exec sigtrap=1)"
pp-ctl destroy sigok >/dev/null

# A task scope of a PMU that reads the creator's memory is refused before
# any counter exists: the target, an unprivileged shell, forks after the
# attempt, which an inherited copy would have made fail (EACCES).
rm -f /tmp/nb.go
mkfifo -m 666 /tmp/nb.go
: >/tmp/nb.out
setpriv_nobody 'echo pid=$$; read x </tmp/nb.go; sh -c true && echo forked' \
	>/tmp/nb.out 2>&1 &
nb=$!
pp_wait_grep '^pid=' /tmp/nb.out
nbpid=$(pp_field pid /tmp/nb.out)
row E124 EOPNOTSUPP pp-ctl create b "$probe" detached pid="$nbpid" inherit
# The same attempt again, left as it ends while the target forks.
pp-ctl create b "$probe" detached pid="$nbpid" inherit >/dev/null 2>&1
echo go >/tmp/nb.go
wait $nb
check_grep "the target of the refused task scope forks" "^forked$" /tmp/nb.out ||
	sed 's/^/# /' /tmp/nb.out
pp_destroy_stray b
rm -f /tmp/nb.go

# Overflow notices need the right to monitor the system; notices of
# incidents do not.  The bit of earlier headers is still taken.
row E120 EPERM pp-ctl drop-caps watch-overflow keep
row E121 EPERM pp-ctl drop-caps watch-raw "$(printf '0x1%08x' "$keep")"
row E122 ENOENT pp-ctl watch-overflow 99999
row E123 EINVAL pp-ctl watch-overflow-raw 0x100000000
check_match "WATCH without a capability is taken" "OK" \
	"$(pp-ctl drop-caps watch keep | tail -n 1)"
check_match "WATCH with the overflow bit is taken" "OK" \
	"$(pp-ctl watch-raw "$(printf '0x1%08x' "$keep")")"
row E126 EINVAL pp-ctl trigger keep "$keep" after=0xffffffffffffffff
check_eq "the refused trigger left none behind" "" "$(pp_stat keep trigger)"
# Kept across a reboot without a region (scripts/previous-check has one).
row E135 ENXIO pp-ctl create kept sw=1 flags=0x9

kill $holder
wait $holder
pp-ctl destroy keep destroy late >/dev/null

# Memory: the module's limit, and the creator's memory cgroup's.
pp_unload
pp_load events= memory_limit_mb=1
row E69 ENOSPC pp-ctl create b sw=1 buffer=1048576 detached
cg=/sys/fs/cgroup
grep -q " $cg cgroup2 " /proc/mounts || mount -t cgroup2 none $cg
echo +memory >$cg/cgroup.subtree_control
mkdir -p $cg/pp-errnos
echo $((4 * 1048576)) >$cg/pp-errnos/memory.max
pp_unload
pp_load events=
row E70 ENOMEM sh -c "echo \$\$ >$cg/pp-errnos/cgroup.procs; exec pp-ctl create b sw=1 buffer=4194304 detached"
rmdir $cg/pp-errnos

# The load itself: a reserved region (region=) that cannot be used.  The
# rows that need memory reserved at boot (ENOSPC, a region another driver
# claimed) are scripts/region-check's.  A refused load leaves nothing.
pp_unload
row E127 EINVAL pp-ctl load region=3000@0x20000000
row E128 EINVAL pp-ctl load region=2M@0x20000800
# Memory in use: the guest's RAM starts at 0 on x86, at 1 GiB on arm64's
# virt machine.
ram=0x20000000
[ "$(uname -m)" != aarch64 ] || ram=0x60000000
row E129 EBUSY pp-ctl load region=2M@$ram
if grep -q ' reserve_mem_find_by_name$' /proc/kallsyms; then
	row E131 ENODEV pp-ctl load region=pp-none
else
	row E130 EOPNOTSUPP pp-ctl load region=pp
fi
check "the refused loads left no module" test ! -d /sys/module/perf_persistent
check "... and no claim on memory" sh -c "! grep -q perf_persistent /proc/iomem"
check "kernel log clean" pp_log_clean

done_testing
