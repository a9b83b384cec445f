/** The kid's picture: its size limit and its real type, read from its bytes — the device service's rule, one place for both. */
export { MAX_PICTURE_BYTES, sniffImageType } from "#device-service/pictures";
