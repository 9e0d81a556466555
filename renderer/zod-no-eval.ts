// Zod checks whether it may compile parsers with `new Function` by trying it; under the CSP that try is a reported violation, so it is told not to.
import { z } from 'zod';

z.config({ jitless: true });
