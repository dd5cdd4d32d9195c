/**
 * Writing the files of a commit: data files rolled at the target size
 * ({@link io.mergesink.core.datafiles.DataFileRoller}), change data files, their statistics, and
 * the deletion of the files an attempt wrote when it does not land.
 */
package io.mergesink.core.datafiles;
