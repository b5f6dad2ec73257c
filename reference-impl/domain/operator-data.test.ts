import { describe, expect, it } from 'vitest';
import { OPERATOR_DATA } from '../../fixtures/index.ts';
import { OperatorData } from './operator-data.ts';

describe('OperatorData.listedAt (the vehicles a pickup location offers, indexed once)', () => {
  const operatorData = new OperatorData(OPERATOR_DATA);

  it('is, for every location, the listed vehicles at it in fleet order, the same list each time', () => {
    for (const location of OPERATOR_DATA.locations) {
      const expected = OPERATOR_DATA.vehicles.filter(
        (v) => operatorData.standing(v.vehicleCode) === 'listed' && v.locationCodes.includes(location.locationCode),
      );
      expect(operatorData.listedAt(location.locationCode)).toEqual(expected);
      expect(operatorData.listedAt(location.locationCode)).toBe(operatorData.listedAt(location.locationCode));
    }
    expect(OPERATOR_DATA.locations.some((l) => operatorData.listedAt(l.locationCode).length > 0)).toBe(true);
  });

  it('offers nothing at an unknown location', () => {
    expect(operatorData.listedAt('NO-SUCH-LOCATION')).toEqual([]);
  });
});
