// SPDX-License-Identifier: GPL-2.0
/*
 * pp-kexec KERNEL INITRD CMDLINE - load KERNEL, with INITRD and CMDLINE,
 * as the crash kernel (kexec_file_load, KEXEC_FILE_ON_CRASH): what
 * kdump-tools' "kexec -p" does, without kexec-tools in the lab's
 * initramfs.  A panic then boots it (vm-run --kdump).  Exit 0 when
 * loaded, 1 with the reason.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#ifndef KEXEC_FILE_ON_CRASH
#define KEXEC_FILE_ON_CRASH	0x00000002
#endif

int main(int argc, char **argv)
{
	int kfd, ifd;

	if (argc != 4) {
		fprintf(stderr, "usage: pp-kexec KERNEL INITRD CMDLINE\n");
		return 2;
	}
	kfd = open(argv[1], O_RDONLY | O_CLOEXEC);
	ifd = open(argv[2], O_RDONLY | O_CLOEXEC);
	if (kfd < 0 || ifd < 0) {
		fprintf(stderr, "pp-kexec: %s: %s\n", kfd < 0 ? argv[1] : argv[2],
			strerror(errno));
		return 1;
	}
	if (syscall(SYS_kexec_file_load, kfd, ifd, strlen(argv[3]) + 1,
		    argv[3], KEXEC_FILE_ON_CRASH)) {
		fprintf(stderr, "pp-kexec: kexec_file_load: %s\n", strerror(errno));
		return 1;
	}
	printf("pp-kexec: crash kernel loaded\n");
	return 0;
}
